/**
 * Issue 15's mixed-load target on the two-node topology: "60 s at a steady 1,000 requests/s mixed
 * p2/dist/admin on the two-node topology: zero errors". Two `packyard serve` web nodes and one
 * `packyard worker` in real processes on one fresh PostgreSQL schema, Redis and s3rver
 * (bench/mixed-topology.ts); packages from real git repositories synced by the worker
 * (bench/mixed-seed.ts); an open-model load at a constant arrival rate spread evenly over both
 * nodes (bench/mixed-load.ts): 80 % p2, 15 % dist (zip archives read from S3), 5 % admin lists.
 *
 * Settings (environment): BENCH_MIXED_SECONDS (60), BENCH_MIXED_RATE (1000 requests/s),
 * BENCH_MIXED_WARMUP_SECONDS (5, same rate, reported apart), BENCH_MIXED_PACKAGES (10),
 * BENCH_MIXED_TAGS (3), BENCH_MIXED_CUSTOMERS (5), BENCH_MIXED_CONNECTIONS (64 per node),
 * BENCH_MIXED_TIMEOUT_MS (10000: a later answer is an error).
 * A missed target is reported, not failed: only a crash makes the exit code non-zero.
 * `npm run bench:mixed` runs it alone; benchMixed() is for bench/run.ts.
 */
import { fileURLToPath } from 'node:url';
import { runLoad } from './mixed-load.js';
import type { Kind } from './mixed-load.js';
import { cpuSeconds, figures, line, printCpu, printRun } from './mixed-report.js';
import type { MixedFigures } from './mixed-report.js';
import { seedMixed } from './mixed-seed.js';
import { startTopology } from './mixed-topology.js';
import { fmt, heading, item, verdict } from './report.js';

export const MIXED_TARGET = { seconds: 60, rate: 1000, errors: 0 };
export const MIXED_MIX: Record<Kind, number> = { p2: 16, dist: 3, admin: 1 };

const setting = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number ≥ 0`);
  return value;
};

export interface MixedResult extends MixedFigures {
  seconds: number;
  rate: number;
  /** The whole target: its length and rate, every request answered 200/304 in time. */
  met: boolean;
}

export async function benchMixed(): Promise<MixedResult> {
  const seconds = setting('BENCH_MIXED_SECONDS', MIXED_TARGET.seconds);
  const rate = setting('BENCH_MIXED_RATE', MIXED_TARGET.rate);
  const warmup = setting('BENCH_MIXED_WARMUP_SECONDS', 5);
  const connections = setting('BENCH_MIXED_CONNECTIONS', 64);
  const timeoutMs = setting('BENCH_MIXED_TIMEOUT_MS', 10_000);
  heading(
    `(k) mixed p2/dist/admin at ${fmt.int(rate)} requests/s for ${seconds} s, two web nodes (issue 15)`,
  );
  const started = performance.now();
  const topology = await startTopology();
  try {
    item(
      'topology',
      `2 web nodes + 1 worker on PostgreSQL schema ${topology.schema}, Redis, s3rver; ` +
        `started in ${fmt.s((performance.now() - started) / 1000)}`,
    );
    const [webA] = topology.webs;
    const seeded = await seedMixed({
      baseUrl: webA!.url,
      adminToken: topology.adminToken,
      packageCount: setting('BENCH_MIXED_PACKAGES', 10),
      tags: setting('BENCH_MIXED_TAGS', 3),
      customers: setting('BENCH_MIXED_CUSTOMERS', 5),
    });
    try {
      item(
        'data',
        `${seeded.packages.length} packages synced by the worker in ${fmt.s(seeded.syncSeconds)}, ` +
          `${seeded.customers} customers: ${seeded.p2.length} p2 documents, ` +
          `${seeded.dist.length} dist URLs of ${new Set(seeded.dist.map((d) => d.path)).size} ` +
          'zip archives (each checked against its SHA-1)',
      );
      const total = MIXED_MIX.p2 + MIXED_MIX.dist + MIXED_MIX.admin;
      item(
        'mix',
        `${(['p2', 'dist', 'admin'] as const).map((k) => `${Math.round((MIXED_MIX[k] / total) * 100)} % ${k}`).join(', ')}; ` +
          `open model, ${connections} connections per node at most, timeout ${fmt.int(timeoutMs)} ms`,
      );
      const load = (s: number) =>
        runLoad({
          urls: topology.webs.map((web) => web.url),
          targets: seeded,
          mix: MIXED_MIX,
          rate,
          seconds: s,
          connections,
          timeoutMs,
        });
      if (warmup > 0) {
        const first = await load(warmup);
        const all = Object.values(first.cells).flat();
        item(`warm-up, ${warmup} s (not counted)`, line(figures(all, first.elapsedMs)));
      }
      const processes = topology.processes();
      const cpuBefore = processes.map(cpuSeconds);
      const run = await load(seconds);
      printCpu(processes, cpuBefore, run.elapsedMs / 1000);
      const result = printRun(
        run,
        topology.webs.map((web) => web.label),
      );
      const met = result.zeroErrors && seconds >= MIXED_TARGET.seconds && rate >= MIXED_TARGET.rate;
      item(
        'target',
        `${MIXED_TARGET.seconds} s at ${fmt.int(MIXED_TARGET.rate)} requests/s, zero errors: ` +
          `${verdict(met)}${result.zeroErrors && !met ? ' (zero errors, but a shorter or slower run)' : ''}`,
      );
      return { ...result, seconds, rate, met };
    } finally {
      seeded.remove();
    }
  } finally {
    await topology.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  benchMixed().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
