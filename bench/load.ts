import autocannon from 'autocannon';
import type { Client, Request } from 'autocannon';

export interface LoadResult {
  /** Mean requests per second over the run (autocannon's "Req/Sec Avg"). */
  rps: number;
  p50: number;
  /** 99th percentile latency in ms. */
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Mean response bytes per request. */
  bytesPerRequest: number;
  /** CPU time of this (load-generating) process over wall time: near 1, the client is the limit. */
  clientCpu: number;
}

export interface LoadOptions {
  baseUrl: string;
  /** Request paths; each connection cycles through all of them from its own offset. */
  paths: string[];
  headers: Record<string, string>;
  connections: number;
  seconds: number;
}

async function run(opts: LoadOptions): Promise<LoadResult> {
  const requests: Request[] = opts.paths.map((path) => ({ method: 'GET', path }));
  let nextClient = 0;
  // Without an offset every connection would ask for the same package at the same moment.
  const setupClient = (client: Client) => {
    const shift = (nextClient++ * 7) % requests.length;
    client.setRequests([...requests.slice(shift), ...requests.slice(0, shift)]);
  };
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const result = await autocannon({
    url: opts.baseUrl,
    connections: opts.connections,
    duration: opts.seconds,
    headers: opts.headers,
    requests,
    setupClient,
  });
  const cpu = process.cpuUsage(cpuBefore);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    bytesPerRequest:
      result.requests.total > 0 ? result.throughput.total / result.requests.total : 0,
    clientCpu: (cpu.user + cpu.system) / 1000 / (performance.now() - started),
  };
}

/** One load run; any error or non-2xx answer makes it fail, as the figures would be meaningless. */
export async function measure(opts: LoadOptions): Promise<LoadResult> {
  const result = await run(opts);
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(
      `Load run against ${opts.baseUrl} had ${result.non2xx} non-2xx answers and ` +
        `${result.errors} errors (${result.timeouts} timeouts) out of ${result.requests}`,
    );
  }
  return result;
}

/** The mean of several runs of the same load (requests are summed). */
export function meanOf(results: LoadResult[]): LoadResult {
  const mean = (pick: (r: LoadResult) => number) =>
    results.reduce((sum, r) => sum + pick(r), 0) / Math.max(1, results.length);
  return {
    rps: mean((r) => r.rps),
    p50: mean((r) => r.p50),
    p99: mean((r) => r.p99),
    requests: results.reduce((sum, r) => sum + r.requests, 0),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    timeouts: results.reduce((sum, r) => sum + r.timeouts, 0),
    bytesPerRequest: mean((r) => r.bytesPerRequest),
    clientCpu: mean((r) => r.clientCpu),
  };
}
