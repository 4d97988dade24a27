/** Figures and printing for bench/mixed.ts: per kind and node, per kind, per node, overall. */
import fs from 'node:fs';
import { KINDS } from './mixed-load.js';
import type { Cell, Kind, LoadRun } from './mixed-load.js';
import type { ChildServer } from './processes.js';
import { fmt, item } from './report.js';

export interface Figures {
  sent: number;
  answered: number;
  errors: number;
  causes: Record<string, number>;
  p50: number;
  p99: number;
  max: number;
  /** Mean body bytes per answer. */
  bodyBytes: number;
  /** Answers per second over the run (first scheduled request to last answer). */
  rate: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? NaN
    : sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;

/** The figures of several cells taken together. */
export function figures(cells: Cell[], elapsedMs: number): Figures {
  const latencies = cells.flatMap((c) => c.latencies).sort((a, b) => a - b);
  const causes: Record<string, number> = {};
  for (const cell of cells) {
    for (const [cause, n] of cell.causes) causes[cause] = (causes[cause] ?? 0) + n;
  }
  const answered = cells.reduce((n, c) => n + c.answered, 0);
  return {
    sent: cells.reduce((n, c) => n + c.sent, 0),
    answered,
    errors: cells.reduce((n, c) => n + c.errors, 0),
    causes,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    max: latencies.at(-1) ?? NaN,
    bodyBytes: answered > 0 ? cells.reduce((n, c) => n + c.bytes, 0) / answered : 0,
    rate: answered / (elapsedMs / 1000),
  };
}

export function line(f: Figures): string {
  const causes = Object.entries(f.causes)
    .map(([cause, n]) => `${cause} ×${fmt.int(n)}`)
    .join(', ');
  return (
    `${fmt.int(f.sent)} sent, ${fmt.int(f.answered)} answered, ${fmt.int(f.errors)} errors` +
    `${causes ? ` (${causes})` : ''}; p50 ${fmt.ms(f.p50)}, p99 ${fmt.ms(f.p99)}, ` +
    `max ${fmt.ms(f.max)}; ${fmt.int(f.rate)} req/s, ${fmt.kb(f.bodyBytes)} a body`
  );
}

export interface MixedFigures {
  byKind: Record<Kind, Figures>;
  byNode: Figures[];
  overall: Figures;
  zeroErrors: boolean;
}

/** Prints every figure of a run; `nodes` names the web nodes in the order of the run's cells. */
export function printRun(run: LoadRun, nodes: string[]): MixedFigures {
  const all = KINDS.flatMap((kind) => run.cells[kind]);
  for (const kind of KINDS) {
    run.cells[kind].forEach((cell, node) => {
      item(`${kind} on ${nodes[node]}`, line(figures([cell], run.elapsedMs)));
    });
  }
  const byKind = Object.fromEntries(
    KINDS.map((kind) => [kind, figures(run.cells[kind], run.elapsedMs)]),
  ) as Record<Kind, Figures>;
  for (const kind of KINDS) item(`${kind}, both nodes`, line(byKind[kind]));
  const byNode = nodes.map((_, node) =>
    figures(
      KINDS.map((kind) => run.cells[kind][node]!),
      run.elapsedMs,
    ),
  );
  byNode.forEach((f, node) => item(`${nodes[node]}, every kind`, line(f)));
  const overall = figures(all, run.elapsedMs);
  item('all requests', line(overall));
  const steady = run.perSecond.slice(1);
  if (steady.length > 0) {
    item(
      'answers per whole second (after the 1st)',
      `min ${fmt.int(Math.min(...steady))}, max ${fmt.int(Math.max(...steady))}`,
    );
  }
  item(
    'load generator',
    `start lag at most ${fmt.ms(run.maxLagMs)}, CPU ${(run.generatorCpu * 100).toFixed(0)} % of a core`,
  );
  const zeroErrors = overall.errors === 0 && overall.answered === overall.sent;
  return { byKind, byNode, overall, zeroErrors };
}

/** CPU seconds (user + system) a process has used so far, from /proc; null without /proc. */
export function cpuSeconds(child: ChildServer): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), utime and stime are 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** Each process's share of a core over `seconds`, from two cpuSeconds readings. */
export function printCpu(
  children: ChildServer[],
  before: (number | null)[],
  seconds: number,
): void {
  const shares = children.map((child, i) => {
    const now = cpuSeconds(child);
    const then = before[i];
    return now === null || then === null || then === undefined
      ? `${child.label} n/a`
      : `${child.label} ${(((now - then) / seconds) * 100).toFixed(0)} %`;
  });
  item('CPU of a core, per process', shares.join(', '));
}
