import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChildServer, freePort } from '../bench/processes.js';
import { ADMIN_TOKEN, TEST_DATABASE, TEST_DATABASE_URL, waitFor } from './helpers.js';

/** One request on a connection of its own, so the cluster hands it to its next process. */
function fresh(url: string) {
  return new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
    const req = http.request(url, { agent: false }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          type: res.headers['content-type'] ?? '',
          body: text,
        }),
      );
    });
    req.on('error', reject);
    // Longer than the primary's 5 s wait for a process, so a slow collection shows as its 503.
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer from ${url}`)));
    req.end();
  });
}

/** The serving processes the primary forked (its node children only). */
const childrenOf = (pid: number): number[] =>
  execFileSync('sh', ['-c', `ps -o pid=,comm= --ppid ${pid} || true`], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, comm]) => comm === 'node')
    .map(([child]) => Number(child));

/** The sum of every sample of `metric` whose labels contain `having` (all of them by default). */
function total(text: string, metric: string, having = ''): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${metric}{`) && !line.startsWith(`${metric} `)) continue;
    const series = line.slice(0, line.lastIndexOf(' '));
    if (series.includes(having)) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

/** A process's limit of open files, as prom-client reads it for `process_max_fds`. */
const maxFds = (pid: number): number =>
  Number(/^Max open files +(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/limits`, 'utf8'))?.[1]);

// On PostgreSQL the serve gets a schema of its own, dropped afterwards (as createTestApp does).
const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
const dbEnv: Record<string, string> =
  TEST_DATABASE === 'postgres' ? { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema } : {};

describe('/metrics of packyard serve with WEB_CONCURRENCY=2', () => {
  let server: ChildServer;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-cluster-metrics-'));
    const port = await freePort();
    server = await ChildServer.start({
      label: 'cluster-metrics',
      port,
      nodeArgs: ['bin/packyard.js', 'serve'],
      env: {
        DATA_DIR: dataDir,
        PORT: String(port),
        // vitest sets BASE_URL for Vite; the server must get its own.
        BASE_URL: `http://127.0.0.1:${port}`,
        WEB_CONCURRENCY: '2',
        ADMIN_TOKEN,
        LOG_LEVEL: 'warn',
        WORKER: 'off',
        METRICS_TOKEN: '',
        ...dbEnv,
      },
      ready: async (url) => (await fetch(`${url}/readyz`)).ok,
      timeoutMs: 90_000,
    });
    await waitFor(
      async () => childrenOf(server.pid).length,
      (n) => n === 2,
      { timeoutMs: 60_000 },
    );
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    if (TEST_DATABASE === 'postgres') {
      const pg = await import('pg');
      const client = new pg.default.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  });

  it('answers for every process: counters add up and never go down between scrapes', async () => {
    const healthz = 'route="/healthz",status="200"';
    let sent = 0;
    let last = { requests: 0, cpu: 0 };
    // Each request and each scrape on a new connection goes to the next process in turn, so the
    // scrapes alternate between the processes: a per-process answer would go 30 -> 21.
    for (let round = 0; round < 12; round++) {
      for (let i = 0; i < 1 + (round % 3); i++) {
        expect((await fresh(`${server.url}/healthz`)).status).toBe(200);
        sent += 1;
      }
      const scrape = await fresh(`${server.url}/metrics`);
      expect(scrape.status, scrape.body).toBe(200);
      expect(scrape.type).toMatch(/^text\/plain/);
      expect(scrape.body.match(/^# TYPE packyard_http_requests_total counter$/gm)).toHaveLength(1);
      const now = {
        requests: total(scrape.body, 'packyard_http_requests_total'),
        cpu: total(scrape.body, 'process_cpu_seconds_total'),
      };
      expect(total(scrape.body, 'packyard_http_requests_total', healthz), `round ${round}`).toBe(
        sent,
      );
      expect(now.requests, `round ${round}`).toBeGreaterThanOrEqual(last.requests);
      expect(now.cpu, `round ${round}`).toBeGreaterThan(0);
      expect(now.cpu, `round ${round}`).toBeGreaterThanOrEqual(last.cpu);
      last = now;
    }
    // Every scrape but the last is counted too (each after it was answered), besides /healthz.
    expect(last.requests).toBeGreaterThanOrEqual(sent + 11);
    // The answer holds both processes' registries, whichever processes the requests reached:
    // per-process figures such as the open-files limit are summed like the counters.
    const limits = childrenOf(server.pid).map(maxFds);
    expect(limits).toHaveLength(2);
    const text = (await fresh(`${server.url}/metrics`)).body;
    expect(total(text, 'process_max_fds')).toBe(limits[0]! + limits[1]!);
  }, 60_000);
});
