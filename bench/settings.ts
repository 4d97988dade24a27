import { execFileSync } from 'node:child_process';
import os from 'node:os';
import type { LoadResult } from './load.js';
import { fmt, heading, item } from './report.js';

export interface Settings {
  seconds: number;
  warmupSeconds: number;
  rounds: number;
  connections: number;
  grants: number;
  constraint: string;
  smallCatalogue: number;
  largeCatalogue: number;
  tags: number;
  /** Run the servers under --cpu-prof and summarize the profiles. */
  profile: boolean;
}

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be > 0, got "${raw}"`);
  return value;
}

export function readSettings(): Settings {
  const seconds = positiveNumber('BENCH_SECONDS', 10);
  return {
    seconds,
    warmupSeconds: Math.min(2, seconds),
    rounds: Math.round(positiveNumber('BENCH_ROUNDS', 2)),
    connections: Math.round(positiveNumber('BENCH_CONNECTIONS', 50)),
    grants: 50,
    constraint: '^1.0',
    smallCatalogue: 100,
    largeCatalogue: Math.round(positiveNumber('BENCH_LARGE_CATALOGUE', 10_000)),
    tags: 1000,
    profile: ['1', 'on', 'true', 'yes'].includes((process.env.BENCH_CPU_PROF ?? '').toLowerCase()),
  };
}

export function printMachine(s: Settings): void {
  const cpus = os.cpus();
  heading('Machine');
  item('cpus', `${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown'}`);
  item('memory', fmt.mb(os.totalmem()));
  item('os', `${os.type()} ${os.release()} ${os.arch()}`);
  item('node', process.version);
  item('git', execFileSync('git', ['--version'], { encoding: 'utf8' }).trim());
  item(
    'load generator',
    `autocannon in this process, ${s.connections} connections, ` +
      `${s.seconds} s per run after ${s.warmupSeconds} s warm-up`,
  );
}

export function loadLine(r: LoadResult): string {
  return (
    `${fmt.int(r.rps)} req/s, p50 ${fmt.ms(r.p50)}, p99 ${fmt.ms(r.p99)} ` +
    `(${fmt.int(r.requests)} requests, client CPU ${Math.round(r.clientCpu * 100)}%)`
  );
}
