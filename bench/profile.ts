import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './processes.js';

/** The parts of a V8 .cpuprofile (as written by `node --cpu-prof`) that the summary reads. */
interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  file: string;
  /** Sampled time in ms, idle excluded. */
  busyMs: number;
  idleMs: number;
  skippedMs: number;
  /** Self time per function. */
  self: { frame: string; ms: number }[];
  /** Time per function including what it calls (each frame counted once per sample). */
  inclusive: { frame: string; ms: number }[];
  /** Self time per package (node_modules), project file, node internals or V8. */
  byOrigin: { origin: string; ms: number }[];
}

function where(url: string): string {
  if (!url) return '';
  const file = url.startsWith('file://') ? new URL(url).pathname : url;
  const modules = file.lastIndexOf('/node_modules/');
  if (modules >= 0) return file.slice(modules + '/node_modules/'.length);
  return file.startsWith(ROOT) ? path.relative(ROOT, file) : file;
}

function origin(url: string, functionName: string): string {
  const at = where(url);
  if (!at) return functionName.startsWith('(') ? functionName : '(native)';
  if (at.startsWith('node:')) return 'node internals';
  const parts = at.split('/');
  const scoped = parts[0]?.startsWith('@');
  if (url.includes('/node_modules/')) return parts.slice(0, scoped ? 2 : 1).join('/');
  return at;
}

const IGNORED = new Set(['(root)', '(program)', '(idle)']);

function top<T extends { ms: number }>(rows: T[], n: number): T[] {
  return rows.sort((a, b) => b.ms - a.ms).slice(0, n);
}

/**
 * Reads a .cpuprofile and ranks where the busy time went, ignoring the first `skipMs` of it
 * (start-up and set-up, when only the load phase is of interest).
 */
export function summarizeProfile(file: string, { n = 15, skipMs = 0 } = {}): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const label = (id: number) => {
    const { functionName, url, lineNumber } = byId.get(id)?.callFrame ?? {
      functionName: '?',
      url: '',
      lineNumber: 0,
    };
    const at = where(url);
    // Line numbers of TypeScript files are those of tsx's output, so only the file is shown.
    const line = at.endsWith('.ts') ? '' : `:${lineNumber + 1}`;
    return `${functionName || '(anonymous)'}${at ? ` ${at}${line}` : ''}`;
  };

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const origins = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  let elapsed = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    elapsed += ms;
    if (elapsed < skipMs) return;
    const frame = byId.get(id)?.callFrame;
    if (!frame || frame.functionName === '(idle)') {
      idle += ms;
      return;
    }
    busy += ms;
    const own = label(id);
    self.set(own, (self.get(own) ?? 0) + ms);
    const o = origin(frame.url, frame.functionName);
    origins.set(o, (origins.get(o) ?? 0) + ms);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = byId.get(at)?.callFrame.functionName ?? '';
      if (IGNORED.has(name)) continue;
      const key = label(at);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
    }
  });
  const rows = (m: Map<string, number>) => [...m].map(([frame, ms]) => ({ frame, ms }));
  return {
    file,
    busyMs: busy,
    idleMs: idle,
    skippedMs: skipMs,
    self: top(rows(self), n),
    inclusive: top(rows(inclusive), n),
    byOrigin: top(
      [...origins].map(([o, ms]) => ({ origin: o, ms })),
      n,
    ),
  };
}

/**
 * The busiest .cpuprofile in a folder (a process writes one per thread; tsx's module-loader
 * thread has its own), summarized; null when there is none.
 */
export function busiestProfile(dir: string, skipMs = 0): ProfileSummary | null {
  const summaries = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => summarizeProfile(path.join(dir, f), { skipMs }))
    .sort((a, b) => b.busyMs - a.busyMs);
  return summaries[0] ?? null;
}

export function formatProfile(summary: ProfileSummary): string {
  const pct = (ms: number) => `${((100 * ms) / summary.busyMs).toFixed(1).padStart(5)}%`;
  const lines = [
    `  ${summary.file}`,
    `  busy ${(summary.busyMs / 1000).toFixed(1)} s, idle ${(summary.idleMs / 1000).toFixed(1)} s` +
      (summary.skippedMs > 0 ? ` (first ${(summary.skippedMs / 1000).toFixed(1)} s skipped)` : ''),
    '  self time by origin:',
    ...summary.byOrigin.map((r) => `    ${pct(r.ms)}  ${r.origin}`),
    '  top functions by self time:',
    ...summary.self.map((r) => `    ${pct(r.ms)}  ${r.frame}`),
    '  top functions by inclusive time:',
    ...summary.inclusive.map((r) => `    ${pct(r.ms)}  ${r.frame}`),
  ];
  return lines.join('\n');
}

// `node --import tsx bench/profile.ts <file.cpuprofile>` summarizes a profile taken elsewhere.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  for (const file of process.argv.slice(2)) console.log(formatProfile(summarizeProfile(file)));
}
