/**
 * An open-model load generator: request i is started at start + i / rate whether or not earlier
 * ones have answered (no coordinated omission), and its latency is counted from that scheduled
 * moment, so time spent queued in this process or waiting for a free connection counts too.
 * Requests go round-robin over the nodes and follow a fixed, evenly interleaved mix of kinds.
 */
import { Pool } from 'undici';
import type { Target } from './mixed-seed.js';

export const KINDS = ['p2', 'dist', 'admin'] as const;
export type Kind = (typeof KINDS)[number];

/** What one kind of request did on one node. */
export interface Cell {
  sent: number;
  /** Answers received (any status), bodies read to the end. */
  answered: number;
  /** Any status other than 200/304, a socket error, or an answer later than the timeout. */
  errors: number;
  /** Errors by status or error code, e.g. `503` or `UND_ERR_HEADERS_TIMEOUT`. */
  causes: Map<string, number>;
  /** Latency in ms of every answer, from its scheduled start to the end of its body. */
  latencies: number[];
  bytes: number;
}

export interface LoadRun {
  rate: number;
  seconds: number;
  /** cells[kind][node] */
  cells: Record<Kind, Cell[]>;
  /** ms from the first scheduled request to the last answer. */
  elapsedMs: number;
  /** Largest delay between a request's scheduled moment and its start in this process. */
  maxLagMs: number;
  /** Answers completed in each whole second of the run (the last partial second left out). */
  perSecond: number[];
  /** CPU time of this process over wall time. */
  generatorCpu: number;
}

/** A slot pattern with each kind's share, spread evenly (smooth weighted round robin). */
export function mixPattern(mix: Record<Kind, number>): Kind[] {
  const total = KINDS.reduce((sum, kind) => sum + mix[kind], 0);
  const current: Record<Kind, number> = { p2: 0, dist: 0, admin: 0 };
  const pattern: Kind[] = [];
  for (let i = 0; i < total; i++) {
    for (const kind of KINDS) current[kind] += mix[kind];
    const pick = KINDS.reduce((best, kind) => (current[kind] > current[best] ? kind : best));
    current[pick] -= total;
    pattern.push(pick);
  }
  return pattern;
}

const newCell = (): Cell => ({
  sent: 0,
  answered: 0,
  errors: 0,
  causes: new Map(),
  latencies: [],
  bytes: 0,
});

export async function runLoad(opts: {
  urls: string[];
  targets: Record<Kind, Target[]>;
  /** Weights per kind, e.g. { p2: 16, dist: 3, admin: 1 }. */
  mix: Record<Kind, number>;
  rate: number;
  seconds: number;
  connections: number;
  timeoutMs: number;
}): Promise<LoadRun> {
  const pools = opts.urls.map(
    (url) =>
      new Pool(url, {
        connections: opts.connections,
        pipelining: 1,
        headersTimeout: opts.timeoutMs,
        bodyTimeout: opts.timeoutMs,
      }),
  );
  const pattern = mixPattern(opts.mix);
  const cells = Object.fromEntries(
    KINDS.map((kind) => [kind, opts.urls.map(newCell)]),
  ) as unknown as Record<Kind, Cell[]>;
  // Per kind and node, so every node cycles through every target of a kind (with one counter per
  // kind, the node and the target's parity could go together: one node, one admin list).
  const nextTarget = Object.fromEntries(
    KINDS.map((kind) => [kind, opts.urls.map(() => 0)]),
  ) as Record<Kind, number[]>;
  const perSecond: number[] = [];
  const total = Math.round(opts.rate * opts.seconds);
  const interval = 1000 / opts.rate;
  let maxLagMs = 0;
  let sent = 0;
  let inflight = 0;
  let drained: () => void = () => {};

  const fail = (cell: Cell, cause: string) => {
    cell.errors++;
    cell.causes.set(cause, (cell.causes.get(cause) ?? 0) + 1);
  };
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  // When the pattern's length is a multiple of the node count, each slot would always land on the
  // same node: shift by one each pattern round, so every slot (so every kind) visits every node.
  const shift = (i: number) =>
    pattern.length % pools.length === 0 ? Math.floor(i / pattern.length) : 0;
  const launch = (i: number, scheduled: number) => {
    const kind = pattern[i % pattern.length]!;
    const node = (i + shift(i)) % pools.length;
    const list = opts.targets[kind];
    const target = list[nextTarget[kind][node]!++ % list.length]!;
    const cell = cells[kind][node]!;
    cell.sent++;
    inflight++;
    pools[node]!.request({ method: 'GET', path: target.path, headers: target.headers })
      .then(async ({ statusCode, body }) => {
        for await (const chunk of body) cell.bytes += (chunk as Buffer).length;
        const end = performance.now();
        const latency = end - scheduled;
        cell.answered++;
        cell.latencies.push(latency);
        const second = Math.floor((end - start) / 1000);
        perSecond[second] = (perSecond[second] ?? 0) + 1;
        if (statusCode !== 200 && statusCode !== 304) fail(cell, String(statusCode));
        else if (latency > opts.timeoutMs) fail(cell, 'late');
      })
      .catch((err: unknown) => {
        fail(cell, (err as { code?: string }).code ?? String(err));
      })
      .finally(() => {
        if (--inflight === 0 && sent === total) drained();
      });
  };

  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      const due = Math.min(total, Math.floor((now - start) / interval) + 1);
      for (; sent < due; sent++) {
        const scheduled = start + sent * interval;
        maxLagMs = Math.max(maxLagMs, now - scheduled);
        launch(sent, scheduled);
      }
      if (sent >= total) resolve();
      else setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
    };
    tick();
  });
  if (inflight > 0) await new Promise<void>((resolve) => (drained = resolve));
  const elapsedMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  await Promise.all(pools.map((pool) => pool.close()));
  const whole = Math.floor(elapsedMs / 1000);
  return {
    rate: opts.rate,
    seconds: opts.seconds,
    cells,
    elapsedMs,
    maxLagMs,
    perSecond: Array.from({ length: whole }, (_, s) => perSecond[s] ?? 0),
    generatorCpu: (cpu.user + cpu.system) / 1000 / elapsedMs,
  };
}
