import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { normalizeSubdir } from './archive.js';
import { GitError } from './errors.js';
import { assertRevision } from './exec.js';
import { environmentAttributes } from './zip-environment.js';
import { ObjectReader } from './object-reader.js';
import { TreeSource, Unsupported } from './zip-tree.js';
import type { BlobDraft, Draft } from './zip-tree.js';
import { DEFLATE_LEVEL, ZIP_LIMITS, makePiece, writeZip } from './zip-writer.js';
import type { ZipEntry, ZipPiece } from './zip-writer.js';
import { PieceCache, Pool } from './zip-pieces.js';

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
/** Compressed pieces kept between versions; the pieces of the versions being zipped stay too. */
const PIECE_CACHE_BYTES = 128 * 1024 * 1024;
const ASYNC_DEFLATE_FROM = 64 * 1024;
/** Bytes of finished zips handed to `visit` and not stored yet. */
const VISIT_BYTES = 64 * 1024 * 1024;
/**
 * Versions zipped together: the first window is small, each next one doubles while the pieces a
 * window held stay under WINDOW_BYTES (and halves past it), and a window needing more than
 * MAX_WINDOW_BLOBS blobs is cut down before they are read: memory follows what versions share.
 */
const FIRST_WINDOW = 8;
const WINDOW_BYTES = 64 * 1024 * 1024;
const MAX_WINDOW_BLOBS = 20_000;
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
  // Zips waiting for `visit` (storage) are held in memory: bounded by count and by bytes.
  const visits = new Pool(opts.concurrency ?? 8, VISIT_BYTES);
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
    let window = FIRST_WINDOW;
    for (let i = 0; i < order.length;) {
      let slice = order.slice(i, i + window);
      await trees.load(slice.map((s) => s.root));
      let listed = slice.map((s) => listJob(trees, s));
      // A window needing too many blobs is cut down before any blob is read.
      while (slice.length > 1 && blobsOf(listed).size > MAX_WINDOW_BLOBS) {
        slice = slice.slice(0, Math.ceil(slice.length / 2));
        listed = listed.slice(0, slice.length);
      }
      i += slice.length;
      const pinned = await pieces.fill(
        blobsOf(listed),
        (d, max) => readPiece(reader, d, max),
        result,
      );
      for (const l of listed) {
        const entries = typeof l.drafts === 'string' ? l.drafts : assemble(l.drafts, pinned);
        if (typeof entries === 'string') {
          result.fallback.push({ job: l.job, reason: entries });
          continue;
        }
        const zip = writeZip(entries, l.time, l.job.commit);
        await visits.run(() => visit(l.job, zip), zip.length);
      }
      const held = [...pinned.values()].reduce((n, p) => n + (p?.data.length ?? 0), 0);
      window = held > WINDOW_BYTES ? Math.max(1, window >> 1) : Math.min(512, window * 2);
      pieces.trim();
    }
    await visits.drain();
  } finally {
    if (!opts.reader) await reader.close();
  }
  return result;
}

const pieceKey = (d: BlobDraft) => `${d.oid}${d.kind === 'symlink' ? ':l' : ''}`;

/** A job with its entries, or with the reason git must zip it. */
function listJob<T extends { root: string }>(
  trees: TreeSource,
  job: T,
): T & { drafts: Draft[] | string } {
  try {
    const drafts = trees.list(job.root);
    if (drafts.length >= ZIP_LIMITS.entries) return { ...job, drafts: 'too many files' };
    if (drafts.some((d) => Buffer.byteLength(d.path, 'latin1') > ZIP_LIMITS.path)) {
      return { ...job, drafts: 'a path too long for a zip' };
    }
    return { ...job, drafts };
  } catch (err) {
    if (!(err instanceof Unsupported)) throw err;
    return { ...job, drafts: err.message };
  }
}

/** The distinct blobs (by piece) the listed jobs need. */
function blobsOf(listed: readonly { drafts: Draft[] | string }[]): Map<string, BlobDraft> {
  const wanted = new Map<string, BlobDraft>();
  for (const { drafts } of listed) {
    if (typeof drafts === 'string') continue;
    for (const d of drafts) if (d.kind !== 'dir') wanted.set(pieceKey(d), d);
  }
  return wanted;
}

/** A job's zip entries, or why git must zip it (a blob or the zip too large to hold). */
function assemble(drafts: Draft[], pieces: Map<string, ZipPiece | null>): ZipEntry[] | string {
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

/** The blob's piece, or its size when it is over `maxBytes` (its bytes were not kept). */
async function readPiece(
  reader: ObjectReader,
  d: BlobDraft,
  maxBytes: number,
): Promise<ZipPiece | number> {
  const blob = await reader.read(d.oid, maxBytes);
  if (blob?.type !== 'blob') throw new GitError(`Blob ${d.oid} not found`, { kind: 'not-found' });
  if (!blob.content) return blob.size;
  const symlink = d.kind === 'symlink';
  if (symlink || blob.content.length < ASYNC_DEFLATE_FROM) return makePiece(blob.content, symlink);
  const deflated = await deflateRaw(blob.content, { level: DEFLATE_LEVEL });
  return makePiece(blob.content, false, deflated);
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
