import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Draft } from './zip-tree.js';

/**
 * The zip thread: a worker thread that makes the pieces of a sync's blobs (CRC-32 and deflate)
 * and writes its zips, while the server's own thread reads the next versions' trees and blobs
 * from git (docs/architecture.md, "Building archives"). The server's thread decides everything
 * else: which blobs the thread holds and when it drops them, which versions go together, where
 * each zip is stored. A thread that cannot start or fails leaves buildZips to do the work in the
 * server's thread, as before it existed, and is not used again by this process.
 */

/** A blob to make into a piece: its bytes, or null when it is too large for this builder. */
export interface BlobToPiece {
  key: string;
  content: Uint8Array | null;
  symlink: boolean;
}

/** A draft as sent: like zip-tree's, its piece named by key. */
export interface JobToZip {
  drafts: Draft[];
  time: number;
  commit: string;
}

export type ToZipThread =
  | {
      id: number;
      /** One buildZips call: its pieces are its own, and go when it ends. */
      session: number;
      /** Pieces it no longer needs to hold (the server's thread keeps the count of bytes). */
      drop: string[];
      blobs: BlobToPiece[];
      jobs: JobToZip[];
    }
  | { release: number };

/** A job's zip, or why git must zip it. */
export type ZipOutcome = { zip: Uint8Array } | { reason: string };

export type FromZipThread =
  | { t: 'ready' }
  | { t: 'zips'; id: number; outcomes: ZipOutcome[] }
  | { t: 'failed'; id: number; message: string };

const ENTRY = new URL('./zip-thread-entry.js', import.meta.url);

interface Settings {
  enabled: boolean;
}

/** On where the machine has a second core for it (ZIP_THREAD, docs/configuration.md). */
const settings: Settings = { enabled: os.availableParallelism() > 1 };

/** The thread could not start or failed: this process zips in its own thread from then on. */
let broken = false;
let current: ZipThread | null = null;

export function configureZipThread(opts: { enabled: boolean }): void {
  const changed = opts.enabled !== settings.enabled;
  settings.enabled = opts.enabled && os.availableParallelism() > 1;
  if (!changed) return;
  void current?.stop();
  current = null;
  broken = false;
}

/** The thread, started if need be; null when zips are made in the server's own thread. */
export function zipThread(): ZipThread | null {
  if (!settings.enabled || broken) return null;
  if (current && !current.usable) current = null;
  try {
    current ??= new ZipThread();
  } catch {
    broken = true;
    return null;
  }
  return current;
}

/** Starts the thread ahead of the first sync (its modules load in tens of ms, once). */
export function prepareZipThread(): void {
  zipThread();
}

/** The thread failed: fall back for good, and tell the caller why. */
export class ZipThreadFailed extends Error {}

export class ZipThread {
  private readonly worker: Worker;
  private readonly waiting = new Map<
    number,
    { resolve: (outcomes: ZipOutcome[]) => void; reject: (err: Error) => void }
  >();
  private nextId = 1;
  private gone = false;
  /** Stopped on purpose (the setting changed): no failure. */
  private stopping = false;
  private nextSession = 1;
  /** Sessions not released yet (for tests). */
  openSessions = 0;

  constructor() {
    this.worker = new Worker(ENTRY, { name: 'packyard-zip' });
    this.worker.on('message', (message: FromZipThread) => this.onMessage(message));
    this.worker.on('error', (err) => this.fail(`the zip thread failed: ${err.message}`));
    this.worker.on('exit', (code) => this.fail(`the zip thread exited with code ${code}`));
    // Idle, it must not keep the process alive (after the listeners: a 'message' one refs it).
    this.worker.unref();
  }

  get usable(): boolean {
    return !this.gone;
  }

  /** A buildZips call's own pieces in the thread: release it when the call ends. */
  session(): ZipSession {
    this.openSessions++;
    return new ZipSession(this, this.nextSession++);
  }

  /** Sends a window and answers its outcomes. */
  send(message: Extract<ToZipThread, { id: number }>): Promise<ZipOutcome[]> {
    if (this.gone) return Promise.reject(new ZipThreadFailed('the zip thread is gone'));
    return new Promise((resolve, reject) => {
      this.waiting.set(message.id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage(message);
    });
  }

  nextMessageId(): number {
    return this.nextId++;
  }

  release(session: number): void {
    this.openSessions--;
    if (!this.gone) this.worker.postMessage({ release: session } satisfies ToZipThread);
  }

  stop(): Promise<number> {
    this.stopping = true;
    return this.worker.terminate();
  }

  private onMessage(message: FromZipThread): void {
    if (message.t === 'ready') return;
    const waiter = this.waiting.get(message.id);
    if (!waiter) return;
    this.waiting.delete(message.id);
    if (this.waiting.size === 0) this.worker.unref();
    if (message.t === 'zips') return waiter.resolve(message.outcomes);
    waiter.reject(new ZipThreadFailed(`the zip thread failed: ${message.message}`));
    this.fail(`the zip thread failed: ${message.message}`);
  }

  private fail(why: string): void {
    if (!this.gone) {
      this.gone = true;
      if (!this.stopping) broken = true;
      void this.worker.terminate();
    }
    for (const [id, { reject }] of this.waiting) {
      this.waiting.delete(id);
      reject(new ZipThreadFailed(why));
    }
  }
}

/**
 * The pieces one buildZips call has in the thread, with the bytes each one's blob had, least
 * recently used first: the server's thread decides what the thread drops, so it knows what to
 * send without asking. Released at the end of the call, so an idle thread holds nothing.
 */
export class ZipSession {
  private readonly held = new Map<string, number>();
  private heldBytes = 0;
  private released = false;

  constructor(
    private readonly thread: ZipThread,
    private readonly id: number,
  ) {}

  /** Keys of `wanted` the thread does not hold; the ones it holds count as just used. */
  missing(wanted: Iterable<string>): string[] {
    const out: string[] = [];
    for (const key of wanted) {
      const bytes = this.held.get(key);
      if (bytes === undefined) {
        out.push(key);
        continue;
      }
      this.held.delete(key);
      this.held.set(key, bytes);
    }
    return out;
  }

  /**
   * Zips `jobs` from the pieces the thread holds plus `blobs`; past `budget` bytes it drops the
   * least recently used pieces `jobs` do not need.
   */
  zip(
    jobs: JobToZip[],
    blobs: BlobToPiece[],
    needed: Set<string>,
    budget: number,
  ): Promise<ZipOutcome[]> {
    for (const blob of blobs) {
      const bytes = blob.content?.byteLength ?? 0;
      this.held.set(blob.key, bytes);
      this.heldBytes += bytes;
    }
    const drop: string[] = [];
    for (const [key, bytes] of this.held) {
      if (this.heldBytes <= budget) break;
      if (needed.has(key)) continue;
      this.held.delete(key);
      this.heldBytes -= bytes;
      drop.push(key);
    }
    const id = this.thread.nextMessageId();
    return this.thread.send({ id, session: this.id, drop, blobs, jobs });
  }

  /** Bytes of the blobs of `keys` it holds. */
  bytesOf(keys: Iterable<string>): number {
    let bytes = 0;
    for (const key of keys) bytes += this.held.get(key) ?? 0;
    return bytes;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.held.clear();
    this.thread.release(this.id);
  }
}
