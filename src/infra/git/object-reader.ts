import { currentSignal } from '../abort.js';
import type { GitObject } from './catfile.js';
import { GitError } from './errors.js';
import { DEFAULT_TIMEOUT_MS, gitEnv } from './exec.js';
import { startProcess, type GitProcess } from './launcher.js';

const HEADER = /^([0-9a-f]{40}(?:[0-9a-f]{24})?) (blob|tree|commit|tag) (\d+)$/;
/**
 * Small objects kept after a read, by object id: a sync reads each tag's commit, root tree and
 * composer.json blob for its analysis and again for its zips. Objects never change, so this
 * cannot go stale; it is bounded by count and by bytes.
 */
const KEEP_ENTRIES = 20_000;
const KEEP_OBJECT_BYTES = 16 * 1024;
const KEEP_BYTES = 32 * 1024 * 1024;
/**
 * The bodies of objects that may be kept are cut from slabs of the reader's own (not Node's
 * shared buffer pool, whose 8 KB blocks anything else in the process may hold): kept as they
 * are, without a copy, and a slab is freed once nothing read from it is kept or held.
 */
const SLAB_BYTES = 256 * 1024;

/** An object whose body was skipped: larger than the read allowed. */
export interface TooLarge {
  oid: string;
  type: GitObject['type'];
  size: number;
  content: null;
}

interface Pending {
  resolve: (obj: GitObject | TooLarge | null) => void;
  reject: (err: Error) => void;
  maxBytes: number;
}

/**
 * One `git cat-file --batch` process kept open for many reads: each `read` writes a line and
 * resolves with the object when its bytes arrive, so callers decide how many are in flight (and so
 * how much memory a read of large blobs holds). Answers come back in request order.
 */
export class ObjectReader {
  private readonly child: GitProcess;
  private readonly waiting: Pending[] = [];
  private stderr = '';
  private failure: GitError | null = null;
  private queued = '';
  private head: Buffer[] = [];
  private body: { obj: Omit<GitObject, 'content'>; buf: Buffer; filled: number } | null = null;
  /** Bytes still to drop of a body too large to keep (and its newline). */
  private skip = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly kept = new Map<string, GitObject>();
  private keptBytes = 0;
  private slab = Buffer.alloc(0);
  private slabUsed = 0;
  private readonly timeoutMs: number;
  private readonly signal: AbortSignal | undefined;
  private readonly onAbort = () =>
    this.fail(new GitError('git cat-file was stopped', { kind: 'aborted' }));
  readonly closed: Promise<void>;

  constructor(gitDir: string, opts: { timeoutMs?: number; signal?: AbortSignal } = {}) {
    // Writes made before the launcher hands over the stdin pipe are kept until it does.
    this.child = startProcess('git', [`--git-dir=${gitDir}`, 'cat-file', '--batch'], {
      env: gitEnv(),
      stdin: 'pipe',
    });
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.signal = opts.signal ?? currentSignal();
    if (this.signal?.aborted) queueMicrotask(this.onAbort);
    this.signal?.addEventListener('abort', this.onAbort, { once: true });
    this.child.on('stdout', (chunk: Buffer) => this.take(chunk));
    this.child.on('stderr', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-16_384);
    });
    this.closed = new Promise((resolve) => {
      this.child.on('error', (err) => {
        this.fail(new GitError(`Failed to run git cat-file: ${err.message}`));
        resolve();
      });
      this.child.on('close', (code) => {
        this.finish();
        if (this.waiting.length > 0) {
          this.fail(
            new GitError(`git cat-file ended (exit code ${code})`, { stderr: this.stderr }),
          );
        }
        resolve();
      });
    });
  }

  /** The object named `name` (an oid or any `git rev-parse` expression); null when missing. */
  read(name: string): Promise<GitObject | null>;
  /** The same, but a body over `maxBytes` is dropped as it arrives (content null). */
  read(name: string, maxBytes: number): Promise<GitObject | TooLarge | null>;
  read(name: string, maxBytes = Infinity): Promise<GitObject | TooLarge | null> {
    if (this.failure) return Promise.reject(this.failure);
    if (/[\n\0]/.test(name)) {
      return Promise.reject(
        new GitError(`Invalid object name: ${JSON.stringify(name)}`, { kind: 'invalid-argument' }),
      );
    }
    // Kept objects are keyed by full object id, which no other kind of name can equal.
    const kept = this.kept.get(name);
    if (kept) {
      const { oid, type, content } = kept;
      const size = content.length;
      return Promise.resolve(size > maxBytes ? { oid, type, size, content: null } : kept);
    }
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject, maxBytes });
      if (this.waiting.length === 1) this.arm();
      // Requests made in the same tick go out in one write.
      if (this.queued === '') setImmediate(() => this.flush());
      this.queued += `${name}\n`;
    });
  }

  /** Ends the process (pending reads fail) and waits for it to exit. */
  async close(): Promise<void> {
    this.child.end();
    if (this.waiting.length > 0) this.fail(new GitError('git cat-file was closed'));
    await this.closed;
  }

  private flush(): void {
    if (this.failure || this.queued === '') return;
    this.child.write(this.queued);
    this.queued = '';
  }

  /**
   * The timeout counts from the last sign of progress while reads are pending: a reader kept
   * open through a long sync is never cut off while it keeps answering.
   */
  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer =
      this.waiting.length === 0
        ? null
        : setTimeout(
            () =>
              this.fail(
                new GitError(`git cat-file made no progress for ${this.timeoutMs} ms`, {
                  kind: 'timeout',
                }),
              ),
            this.timeoutMs,
          );
  }

  private take(chunk: Buffer): void {
    this.consume(chunk);
    if (!this.failure) this.arm();
  }

  private consume(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length && !this.failure) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - at);
        this.skip -= n;
        at += n;
        continue;
      }
      if (this.body) {
        const { buf } = this.body;
        const n = Math.min(buf.length - this.body.filled, chunk.length - at);
        chunk.copy(buf, this.body.filled, at, at + n);
        this.body.filled += n;
        at += n;
        if (this.body.filled < buf.length) return;
        const { obj } = this.body;
        this.body = null;
        if (buf[buf.length - 1] !== 0x0a) {
          this.fail(new GitError('Malformed output from git cat-file --batch'));
          return;
        }
        const read: GitObject = { ...obj, content: buf.subarray(0, buf.length - 1) };
        this.keep(read);
        this.waiting.shift()?.resolve(read);
        continue;
      }
      const nl = chunk.indexOf(0x0a, at);
      if (nl < 0) {
        this.head.push(chunk.subarray(at));
        return;
      }
      this.head.push(chunk.subarray(at, nl));
      at = nl + 1;
      const header =
        this.head.length === 1
          ? this.head[0]!.toString('latin1')
          : Buffer.concat(this.head).toString('latin1');
      this.head = [];
      const m = HEADER.exec(header);
      if (!m) {
        // `<name> missing` / `<name> ambiguous`: no body follows.
        this.waiting.shift()?.resolve(null);
        continue;
      }
      const size = Number(m[3]);
      const pending = this.waiting[0];
      if (pending && size > pending.maxBytes) {
        this.waiting.shift();
        this.skip = size + 1;
        pending.resolve({ oid: m[1]!, type: m[2] as GitObject['type'], size, content: null });
        continue;
      }
      // The body and its trailing newline.
      const type = m[2] as GitObject['type'];
      this.body = { obj: { oid: m[1]!, type }, buf: this.bodyBuffer(size + 1, type), filled: 0 };
    }
  }

  /** A buffer for a body of `bytes` (its newline included): from a slab when it may be kept. */
  private bodyBuffer(bytes: number, type: GitObject['type']): Buffer {
    if (type === 'tag' || bytes > KEEP_OBJECT_BYTES + 1) return Buffer.allocUnsafe(bytes);
    if (this.slabUsed + bytes > this.slab.length) {
      this.slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
      this.slabUsed = 0;
    }
    const buf = this.slab.subarray(this.slabUsed, this.slabUsed + bytes);
    this.slabUsed += bytes;
    return buf;
  }

  private keep(obj: GitObject): void {
    // What bodyBuffer cut from a slab, and only that (the same bounds).
    if (obj.type === 'tag' || obj.content.length > KEEP_OBJECT_BYTES) return;
    if (this.kept.has(obj.oid)) return;
    if (this.kept.size >= KEEP_ENTRIES || this.keptBytes + obj.content.length > KEEP_BYTES) {
      this.kept.clear();
      this.keptBytes = 0;
    }
    this.keptBytes += obj.content.length;
    this.kept.set(obj.oid, { ...obj });
  }

  private fail(err: GitError): void {
    if (this.failure) return;
    this.failure = err;
    this.finish();
    this.child.kill();
    for (const p of this.waiting.splice(0)) p.reject(err);
  }

  private finish(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.signal?.removeEventListener('abort', this.onAbort);
  }
}
