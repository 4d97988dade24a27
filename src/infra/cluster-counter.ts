import cluster from 'node:cluster';
import type { Worker } from 'node:cluster';
import { WindowCounter } from './window-counter.js';
import { forkedByServe } from './serve-processes.js';

/** Counts requests per key in fixed windows: `current` in this window, `ttl` ms until it ends. */
export interface HitCounter {
  hit(key: string, now?: number): { current: number; ttl: number };
  /** The count so far in the current window, without counting. */
  peek(key: string, now?: number): { current: number; ttl: number };
}

/** How long a process gathers its hits before telling the primary (the counters' only lag). */
const FLUSH_MS = 5;
/**
 * The same while every key it counted is below a tenth of its limit: so far from the limit the
 * longer lag cannot let a key through that should be stopped, and under load each send costs
 * both the process and the primary (docs/deployment.md, "Rate limits").
 */
const RELAXED_FLUSH_MS = 50;
const DELTAS = 'packyard:counter-deltas';
const TOTALS = 'packyard:counter-totals';

/** A process's new hits of one counter: `[windowIndex, key, count]` entries. */
interface DeltasMessage {
  type: typeof DELTAS;
  name: string;
  entries: [number, string, number][];
}
/** What every OTHER process counted for some keys: `[windowIndex, key, othersCount]`. */
interface TotalsMessage {
  type: typeof TOTALS;
  name: string;
  entries: [number, string, number][];
}

/**
 * Fixed-window counters shared by the processes of one `packyard serve` cluster (WEB_CONCURRENCY)
 * when there is no Redis: `hit` stays synchronous (the p2 fast path needs it), adding what this
 * process counted to what the others reported through the primary. Windows are aligned to the
 * clock so every process agrees on them. The others' share lags by one flush (a few ms).
 */
export class ClusterWindowCounter implements HitCounter {
  private readonly keys = new Map<string, { window: number; own: number; others: number }>();
  private pending = new Map<string, [number, string, number]>();
  private timer: NodeJS.Timeout | null = null;
  /** When the scheduled flush runs (ms since the epoch). */
  private flushAt = 0;
  private nextSweep = 0;

  constructor(
    private readonly name: string,
    private readonly windowMs: number,
    private readonly send: (message: DeltasMessage) => void,
    /** The limit the counts are checked against: from a tenth of it on, hits go within FLUSH_MS. */
    private readonly limit = 0,
  ) {}

  hit(key: string, now = Date.now()): { current: number; ttl: number } {
    const window = Math.floor(now / this.windowMs);
    if (now >= this.nextSweep) this.sweep(window, now);
    let state = this.keys.get(key);
    if (!state || state.window !== window) {
      state = { window, own: 0, others: 0 };
      this.keys.set(key, state);
    }
    state.own += 1;
    const id = `${window}\u0000${key}`;
    const entry = this.pending.get(id);
    if (entry) entry[2] += 1;
    else this.pending.set(id, [window, key, 1]);
    const current = state.own + state.others;
    const delay = this.limit > 0 && current * 10 < this.limit ? RELAXED_FLUSH_MS : FLUSH_MS;
    if (this.timer === null || this.flushAt > now + delay) {
      if (this.timer) clearTimeout(this.timer);
      this.flushAt = now + delay;
      this.timer = setTimeout(() => this.flush(), delay).unref();
    }
    return { current, ttl: (window + 1) * this.windowMs - now };
  }

  peek(key: string, now = Date.now()): { current: number; ttl: number } {
    const window = Math.floor(now / this.windowMs);
    const state = this.keys.get(key);
    const current = state && state.window === window ? state.own + state.others : 0;
    return { current, ttl: (window + 1) * this.windowMs - now };
  }

  /** The primary's news of the other processes' counts. */
  receive(message: TotalsMessage): void {
    for (const [window, key, others] of message.entries) {
      const state = this.keys.get(key);
      if (!state || state.window < window) {
        this.keys.set(key, { window, own: 0, others });
      } else if (state.window === window) {
        state.others = Math.max(state.others, others);
      }
    }
  }

  private flush(): void {
    this.timer = null;
    if (this.pending.size === 0) return;
    const entries = [...this.pending.values()];
    this.pending = new Map();
    this.send({ type: DELTAS, name: this.name, entries });
  }

  private sweep(window: number, now: number): void {
    for (const [key, state] of this.keys) if (state.window < window) this.keys.delete(key);
    this.nextSweep = now + this.windowMs;
  }
}

const counters = new Map<string, ClusterWindowCounter>();
let listening = false;

/**
 * The counter for `name`: shared with the cluster's other processes in a process the primary
 * forked, else an ordinary in-process WindowCounter.
 */
export function windowCounter(
  name: string,
  windowMs: number,
  /** The limit its counts are checked against, if one is: see RELAXED_FLUSH_MS. */
  limit = 0,
): HitCounter {
  if (!forkedByServe()) return new WindowCounter(windowMs);
  const existing = counters.get(name);
  if (existing) return existing;
  const counter = new ClusterWindowCounter(
    name,
    windowMs,
    (message) =>
      // The callback keeps a send to a primary that is gone from becoming an uncaught 'error'.
      process.send?.(message, undefined, undefined, () => {}),
    limit,
  );
  counters.set(name, counter);
  if (!listening) {
    listening = true;
    process.on('message', (message: unknown) => {
      if (isMessage<TotalsMessage>(message, TOTALS)) counters.get(message.name)?.receive(message);
    });
  }
  return counter;
}

function isMessage<T extends DeltasMessage | TotalsMessage>(
  message: unknown,
  type: T['type'],
): message is T {
  const m = message as Partial<T> | null;
  return (
    typeof m === 'object' &&
    m !== null &&
    m.type === type &&
    typeof m.name === 'string' &&
    Array.isArray(m.entries)
  );
}

/**
 * In the primary: adds up the processes' counts and tells each process what the others counted.
 * Windows older than the previous one are forgotten.
 */
export function relayClusterCounters(): void {
  // counter name -> window -> key -> worker id -> count
  const table = new Map<string, Map<number, Map<string, Map<number, number>>>>();
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (!isMessage<DeltasMessage>(message, DELTAS)) return;
    let windows = table.get(message.name);
    if (!windows)
      table.set(message.name, (windows = new Map<number, Map<string, Map<number, number>>>()));
    const touched: [number, Map<number, number>, string][] = [];
    let newest = 0;
    for (const [window, key, count] of message.entries) {
      newest = Math.max(newest, window);
      let keys = windows.get(window);
      if (!keys) windows.set(window, (keys = new Map<string, Map<number, number>>()));
      let byWorker = keys.get(key);
      if (!byWorker) keys.set(key, (byWorker = new Map<number, number>()));
      byWorker.set(worker.id, (byWorker.get(worker.id) ?? 0) + count);
      touched.push([window, byWorker, key]);
    }
    for (const window of windows.keys()) if (window < newest - 1) windows.delete(window);
    for (const other of Object.values(cluster.workers ?? {})) {
      if (!other || other.id === worker.id || !other.isConnected()) continue;
      const entries = touched.map(([window, byWorker, key]): [number, string, number] => {
        let others = 0;
        for (const [id, n] of byWorker) if (id !== other.id) others += n;
        return [window, key, others];
      });
      // A process that is dying fails the send; with a callback that is not an 'error' event on
      // the worker, which would take the primary down with it.
      other.send({ type: TOTALS, name: message.name, entries } satisfies TotalsMessage, () => {});
    }
  });
}
