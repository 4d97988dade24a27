import { ZIP_LIMITS, type ZipEntry, type ZipPiece } from './zip-writer.js';
import type { BlobDraft, Draft } from './zip-tree.js';

/** A blob above this is left to git archive (which streams it) with its whole zip. */
export const MAX_BLOB = 32 * 1024 * 1024;
/**
 * Blobs read at once: many small ones in flight keep git and the pipe busy; one over SMALL_BLOB
 * is skipped in that pass and read again in a second pass that holds a few at a time.
 */
const READ_AHEAD = 256;
const SMALL_BLOB = 1024 * 1024;
const LARGE_READ_AHEAD = 4;

/**
 * Makes `todo`'s blobs with `make`, many at once: those over SMALL_BLOB are skipped in a first
 * pass and made in a second one that holds a few at a time; `made` gets each result (null: over
 * MAX_BLOB, left to git archive).
 */
export async function readBlobs<D, P>(
  todo: [string, D][],
  make: (d: D, maxBytes: number) => Promise<P | number>,
  made: (key: string, piece: P | null) => void,
): Promise<void> {
  const large: [string, D][] = [];
  const pass = async (list: [string, D][], width: number, maxBytes: number) => {
    let next = 0;
    const worker = async () => {
      while (next < list.length) {
        const [key, d] = list[next++]!;
        const piece = await make(d, maxBytes);
        if (typeof piece !== 'number') made(key, piece);
        else if (maxBytes < MAX_BLOB) large.push([key, d]);
        else made(key, null);
      }
    };
    await Promise.all(Array.from({ length: Math.min(width, list.length) }, worker));
  };
  await pass(todo, READ_AHEAD, SMALL_BLOB);
  await pass(large.splice(0), LARGE_READ_AHEAD, MAX_BLOB);
}

/** The key of a blob's piece: a symlink's target is stored, not deflated. */
export const pieceKey = (d: BlobDraft): string => `${d.oid}${d.kind === 'symlink' ? ':l' : ''}`;

/** A job's zip entries, or why git must zip it (a blob or the zip too large to hold). */
export function assemble(
  drafts: readonly Draft[],
  pieces: Map<string, ZipPiece | null>,
): ZipEntry[] | string {
  const entries: ZipEntry[] = [];
  let bytes = 0;
  for (const d of drafts) {
    if (d.kind === 'dir') {
      entries.push(d);
      continue;
    }
    const piece = pieces.get(pieceKey(d));
    if (!piece) return 'a file too large to build in memory';
    bytes += piece.data.length + 2 * d.path.length + 100;
    entries.push({ ...d, piece });
  }
  return bytes > ZIP_LIMITS.bytes / 2 ? 'an archive too large to build in memory' : entries;
}

/** Compressed blobs by object id, least recently used dropped first past the byte budget. */
export class PieceCache {
  private readonly map = new Map<string, ZipPiece | null>();
  private bytes = 0;
  constructor(private readonly budget: number) {}

  /** The pieces of `wanted`, read where not cached; null: too large for this builder. */
  async fill<D>(
    wanted: Map<string, D>,
    make: (d: D, maxBytes: number) => Promise<ZipPiece | number>,
    stats: { blobs: number },
  ): Promise<Map<string, ZipPiece | null>> {
    const out = new Map<string, ZipPiece | null>();
    const missing: [string, D][] = [];
    for (const [key, d] of wanted) {
      const hit = this.map.get(key);
      if (hit === undefined) {
        missing.push([key, d]);
        continue;
      }
      this.map.delete(key);
      this.map.set(key, hit);
      out.set(key, hit);
    }
    await readBlobs(missing, make, (key, piece) => {
      if (piece) stats.blobs++;
      this.keep(out, key, piece);
    });
    return out;
  }

  private keep(out: Map<string, ZipPiece | null>, key: string, piece: ZipPiece | null): void {
    out.set(key, piece);
    this.map.set(key, piece);
    this.bytes += piece?.data.length ?? 0;
  }

  trim(): void {
    for (const [key, piece] of this.map) {
      if (this.bytes <= this.budget) return;
      this.map.delete(key);
      this.bytes -= piece?.data.length ?? 0;
    }
  }
}

/**
 * Runs at most `size` tasks at once, holding at most `maxBytes` between them; the first failure
 * is thrown by `run` or `drain`.
 */
export class Pool {
  private readonly running = new Set<Promise<void>>();
  /** Callers of `run` waiting for room, woken one at a time as tasks end. */
  private readonly waiting: (() => void)[] = [];
  private bytes = 0;
  private error: Error | null = null;
  constructor(
    private readonly size: number,
    /** Bytes the running tasks may hold together (one task alone may hold more). */
    private readonly maxBytes = Infinity,
  ) {}

  private check(): void {
    if (this.error) throw this.error;
  }

  /** Starts `task` (which holds `bytes`) once there is room; throws an earlier task's failure. */
  async run(task: () => Promise<void>, bytes = 0): Promise<void> {
    this.check();
    const full = () =>
      this.running.size >= this.size ||
      (this.running.size > 0 && this.bytes + bytes > this.maxBytes);
    while (full()) await new Promise<void>((wake) => this.waiting.push(wake));
    this.check();
    this.bytes += bytes;
    const p: Promise<void> = task()
      .catch((err: unknown) => {
        this.error ??= err instanceof Error ? err : new Error(String(err));
      })
      .finally(() => {
        this.running.delete(p);
        this.bytes -= bytes;
        this.waiting.shift()?.();
      });
    this.running.add(p);
  }

  async drain(): Promise<void> {
    await Promise.all(this.running);
    this.check();
  }
}
