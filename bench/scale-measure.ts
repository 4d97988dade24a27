/** The measurements of bench/scale.ts: first answers for new tokens, and wrk runs side by side. */
import { runWrkRequests } from './yardstick.js';
import type { WrkResult } from './yardstick.js';

export type Request = [path: string, authorization: string];

export interface Latencies {
  count: number;
  p50: number;
  p99: number;
  /** Answers other than 200. */
  errors: number;
}

const percentile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? Number.NaN;

/**
 * Each request once, one after another on one keep-alive connection, timed from send to the end
 * of the body: for tokens never used before, every one is that token's first answer.
 */
export async function firstAnswers(baseUrl: string, requests: Request[]): Promise<Latencies> {
  const times: number[] = [];
  let errors = 0;
  for (const [path, authorization] of requests) {
    const started = performance.now();
    const res = await fetch(baseUrl + path, { headers: { authorization } });
    await res.arrayBuffer();
    times.push(performance.now() - started);
    if (res.status !== 200) errors += 1;
  }
  times.sort((a, b) => a - b);
  return { count: times.length, p50: percentile(times, 0.5), p99: percentile(times, 0.99), errors };
}

/** Every request once, `parallel` at a time (warms every token's audience); returns non-200s. */
export async function touchAll(baseUrl: string, requests: Request[], parallel = 8) {
  let next = 0;
  let errors = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < requests.length) {
        const [path, authorization] = requests[next++]!;
        const res = await fetch(baseUrl + path, { headers: { authorization } });
        await res.arrayBuffer();
        if (res.status !== 200) errors += 1;
      }
    }),
  );
  return errors;
}

/**
 * Loads named request sets in turn with wrk, `rounds` times in alternating order, and returns the
 * median round of each: the machine's drift over the run favours none of them.
 */
export async function sideBySide(
  sets: { name: string; url: string; requests: Request[] }[],
  opts: { seconds: number; rounds: number; connections: number; work: string },
): Promise<{ median: Map<string, WrkResult>; rounds: Map<string, WrkResult[]> }> {
  const results = new Map<string, WrkResult[]>(sets.map((s) => [s.name, []]));
  const run = (s: (typeof sets)[number], seconds: number) =>
    runWrkRequests({
      url: s.url,
      requests: s.requests,
      seconds,
      connections: opts.connections,
      work: opts.work,
    });
  // The same warm-up for every server, long enough for V8 to settle (its young generation grows
  // with sustained load): a process that served more before otherwise measured faster.
  for (const s of sets) await run(s, 2 * opts.seconds);
  for (let round = 0; round < opts.rounds; round++) {
    for (const s of round % 2 === 0 ? sets : [...sets].reverse()) {
      results.get(s.name)!.push(await run(s, opts.seconds));
    }
  }
  return { median: medianRounds(results), rounds: results };
}

/** Each name's median round by throughput. */
export function medianRounds(rounds: Map<string, WrkResult[]>): Map<string, WrkResult> {
  return new Map(
    [...rounds].map(([name, rs]) => [
      name,
      [...rs].sort((a, b) => a.rps - b.rps)[Math.floor(rs.length / 2)]!,
    ]),
  );
}

/** `a`'s throughput over `b`'s in each round, in round order. */
export function roundRatios(rounds: Map<string, WrkResult[]>, a: string, b: string): number[] {
  const bs = rounds.get(b) ?? [];
  return (rounds.get(a) ?? []).map((r, i) => r.rps / bs[i]!.rps);
}

/** The median over rounds of `a`'s throughput over `b`'s in the same round. */
export function medianRatio(rounds: Map<string, WrkResult[]>, a: string, b: string): number {
  const ratios = roundRatios(rounds, a, b).sort((x, y) => x - y);
  return ratios[Math.floor(ratios.length / 2)] ?? Number.NaN;
}
