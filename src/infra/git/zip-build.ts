import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { normalizeSubdir } from './archive.js';
import { GitError } from './errors.js';
import { assertRevision, runGit } from './exec.js';
import { ObjectReader } from './object-reader.js';
import { TreeSource, Unsupported } from './zip-tree.js';
import type { BlobDraft } from './zip-tree.js';
import { DEFLATE_LEVEL, ZIP_LIMITS, makePiece, writeZip } from './zip-writer.js';
import type { ZipEntry, ZipPiece } from './zip-writer.js';

export interface ZipJob {
  commit: string;
  /** Archive only this folder; its contents end up at the zip root. */
  subdir?: string;
}

export interface ZipBuildResult {
  /** Jobs this builder leaves to `git archive`, and why. */
  fallback: { job: ZipJob; reason: string }[];
  /** Blobs read and compressed (each distinct blob once while it stays in the cache). */
  blobs: number;
}

const FULL_SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
/** A blob above this is left to git archive (which streams it) with its whole zip. */
const MAX_BLOB = 32 * 1024 * 1024;
/** Compressed pieces kept between versions; the pieces of the versions being zipped stay too. */
const PIECE_CACHE_BYTES = 128 * 1024 * 1024;
/** Blobs read and compressed at the same time (large ones on libuv's thread pool). */
const READ_AHEAD = 8;
const ASYNC_DEFLATE_FROM = 64 * 1024;
const deflateRaw = promisify(zlib.deflateRaw);

/**
 * Zips of many commits (or folders of commits) from ONE `git cat-file --batch` process: each tree
 * and blob is read once, each distinct blob deflated once, and every zip assembled from those
 * pieces (zip-writer.ts: what `git archive --format=zip` holds, byte for byte once unpacked).
 * `visit` receives each zip as it is made; at most `concurrency` visits run at once.
 */
export async function buildZips(
  gitDir: string,
  jobs: readonly ZipJob[],
  opts: {
    timeoutMs?: number;
    signal?: AbortSignal;
    concurrency?: number;
    /** An open reader of this repository to use (and leave open) instead of a new one. */
    reader?: ObjectReader;
  },
  visit: (job: ZipJob, zip: Buffer) => Promise<void>,
): Promise<ZipBuildResult> {
  const result: ZipBuildResult = { fallback: [], blobs: 0 };
  if (jobs.length === 0) return result;
  const normalized = jobs.map((job) => {
    assertRevision(job.commit);
    if (!FULL_SHA.test(job.commit)) {
      throw new GitError(`buildZips needs full commit ids, got ${job.commit}`, {
        kind: 'invalid-argument',
      });
    }
    return { job, subdir: normalizeSubdir(job.subdir ?? '') };
  });
  const outside = await environmentAttributes(gitDir);
  if (outside) return { ...result, fallback: jobs.map((job) => ({ job, reason: outside })) };

  const reader = opts.reader ?? new ObjectReader(gitDir, opts);
  const visits = new Pool(opts.concurrency ?? 8);
  try {
    const commits = await readCommits(reader, [...new Set(jobs.map((j) => j.commit))]);
    const roots = await Promise.all(
      normalized.map(async ({ job, subdir }) => {
        const commit = commits.get(job.commit)!;
        if (subdir === '') return commit.tree;
        const tree = await reader.read(`${job.commit}:${subdir}`);
        if (tree?.type !== 'tree') {
          throw new GitError(`Directory ${subdir} not found at commit ${job.commit}`, {
            kind: 'not-found',
          });
        }
        return tree.oid;
      }),
    );
    // Oldest first: neighbours in time share the most, so the piece cache keeps what comes next.
    const order = normalized
      .map((n, i) => ({ ...n, root: roots[i]!, time: commits.get(n.job.commit)!.time }))
      .sort((a, b) => a.time - b.time);
    const trees = new TreeSource(reader, jobs[0]!.commit.length / 2);
    const pieces = new PieceCache(PIECE_CACHE_BYTES);
    let window = 64;
    for (let i = 0; i < order.length;) {
      const slice = order.slice(i, i + window);
      i += slice.length;
      await trees.load(slice.map((s) => s.root));
      const listed = slice.map((s) => {
        try {
          const drafts = trees.list(s.root);
          const tooLong = drafts.some((d) => Buffer.byteLength(d.path, 'latin1') > ZIP_LIMITS.path);
          if (drafts.length >= ZIP_LIMITS.entries) throw new Unsupported('too many files');
          if (tooLong) throw new Unsupported('a path too long for a zip');
          return { ...s, drafts };
        } catch (err) {
          if (!(err instanceof Unsupported)) throw err;
          result.fallback.push({ job: s.job, reason: err.message });
          return null;
        }
      });
      const wanted = new Map<string, BlobDraft>();
      for (const l of listed)
        for (const d of l?.drafts ?? []) if (d.kind !== 'dir') wanted.set(pieceKey(d), d);
      const pinned = await pieces.fill(wanted, (d) => readPiece(reader, d), result);
      for (const l of listed) {
        if (!l) continue;
        const entries: ZipEntry[] = [];
        let bytes = 0;
        for (const d of l.drafts) {
          if (d.kind === 'dir') {
            entries.push(d);
            continue;
          }
          const piece = pinned.get(pieceKey(d)) ?? null;
          if (!piece) break;
          bytes += piece.data.length + 2 * d.path.length + 100;
          entries.push({ ...d, piece });
        }
        if (entries.length < l.drafts.length || bytes > ZIP_LIMITS.bytes / 2) {
          result.fallback.push({
            job: l.job,
            reason: 'a file or archive too large to build in memory',
          });
          continue;
        }
        const zip = writeZip(entries, l.time, l.job.commit);
        await visits.run(() => visit(l.job, zip));
      }
      const held = [...pinned.values()].reduce((n, p) => n + (p?.data.length ?? 0), 0);
      window = held > 64 * 1024 * 1024 ? Math.max(1, window >> 1) : Math.min(512, window * 2);
      pieces.trim();
    }
    await visits.drain();
  } finally {
    if (!opts.reader) await reader.close();
  }
  return result;
}

const pieceKey = (d: BlobDraft) => `${d.oid}${d.kind === 'symlink' ? ':l' : ''}`;

async function readPiece(reader: ObjectReader, d: BlobDraft): Promise<ZipPiece | null> {
  const blob = await reader.read(d.oid, MAX_BLOB);
  if (blob?.type !== 'blob') throw new GitError(`Blob ${d.oid} not found`, { kind: 'not-found' });
  if (!blob.content) return null;
  const symlink = d.kind === 'symlink';
  if (symlink || blob.content.length < ASYNC_DEFLATE_FROM) return makePiece(blob.content, symlink);
  const deflated = await deflateRaw(blob.content, { level: DEFLATE_LEVEL });
  return makePiece(blob.content, false, deflated);
}

/** Compressed blobs by object id, least recently used dropped first past the byte budget. */
class PieceCache {
  private readonly map = new Map<string, ZipPiece | null>();
  private bytes = 0;
  constructor(private readonly budget: number) {}

  /** The pieces of `wanted`, read (READ_AHEAD at a time) where not cached; null: too large. */
  async fill<D>(
    wanted: Map<string, D>,
    make: (d: D) => Promise<ZipPiece | null>,
    stats: ZipBuildResult,
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
    let next = 0;
    const worker = async () => {
      while (next < missing.length) {
        const [key, d] = missing[next++]!;
        const piece = await make(d);
        stats.blobs++;
        out.set(key, piece);
        this.map.set(key, piece);
        this.bytes += piece?.data.length ?? 0;
      }
    };
    await Promise.all(Array.from({ length: Math.min(READ_AHEAD, missing.length) }, worker));
    return out;
  }

  trim(): void {
    for (const [key, piece] of this.map) {
      if (this.bytes <= this.budget) return;
      this.map.delete(key);
      this.bytes -= piece?.data.length ?? 0;
    }
  }
}

/** Runs at most `size` tasks at once; the first failure is thrown by `run` or `drain`. */
class Pool {
  private readonly running = new Set<Promise<void>>();
  private error: Error | null = null;
  constructor(private readonly size: number) {}

  private check(): void {
    if (this.error) throw this.error;
  }

  async run(task: () => Promise<void>): Promise<void> {
    this.check();
    while (this.running.size >= this.size) await Promise.race(this.running);
    this.check();
    const p: Promise<void> = task()
      .catch((err: unknown) => {
        this.error ??= err instanceof Error ? err : new Error(String(err));
      })
      .finally(() => this.running.delete(p));
    this.running.add(p);
  }

  async drain(): Promise<void> {
    await Promise.all(this.running);
    this.check();
  }
}

async function readCommits(reader: ObjectReader, oids: string[]) {
  const objects = await Promise.all(oids.map((oid) => reader.read(oid)));
  const out = new Map<string, { tree: string; time: number }>();
  oids.forEach((oid, i) => {
    const obj = objects[i];
    if (obj?.type !== 'commit')
      throw new GitError(`Commit not found: ${oid}`, { kind: 'not-found' });
    const text = obj.content.toString('latin1');
    const tree = /^tree ([0-9a-f]+)$/m.exec(text)?.[1];
    const time = /^committer .* (-?\d+) [+-]\d{4}$/m.exec(text.split('\n\n', 1)[0] ?? '')?.[1];
    if (!tree || time === undefined) throw new GitError(`Commit ${oid} cannot be parsed`);
    out.set(oid, { tree, time: Number(time) });
  });
  return out;
}

let userAttributes: Promise<string | null> | null = null;

/**
 * Attribute files git archive would read besides the tree's own (the mirror's info/attributes,
 * core.attributesFile, the user's and the system's): with any of them, git builds every zip.
 */
async function environmentAttributes(gitDir: string): Promise<string | null> {
  const exists = (file: string) =>
    fs.access(file).then(
      () => true,
      () => false,
    );
  if (await exists(path.join(gitDir, 'info', 'attributes')))
    return 'the mirror has info/attributes';
  const config = await fs.readFile(path.join(gitDir, 'config'), 'utf8').catch(() => '');
  if (/attributesfile|include/i.test(config)) return 'the mirror sets core.attributesFile';
  userAttributes ??= (async () => {
    for (const scope of ['--system', '--global']) {
      const { stdout } = await runGit(['config', scope, '--get', 'core.attributesFile'], {
        allowExitCodes: [1, 128],
      });
      if (stdout.toString().trim() !== '') return `core.attributesFile is set (${scope.slice(2)})`;
    }
    const xdg = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
    if (await exists(path.join(xdg, 'git', 'attributes')))
      return 'a user gitattributes file exists';
    if (!process.env.GIT_ATTR_NOSYSTEM && (await exists('/etc/gitattributes'))) {
      return '/etc/gitattributes exists';
    }
    return null;
  })();
  return userAttributes;
}
