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
import type { ZipPiece } from './zip-writer.js';
import { PieceCache, Pool, assemble, pieceKey, readBlobs } from './zip-pieces.js';
import { ZipThreadFailed, zipThread } from './zip-thread.js';
import type { BlobToPiece, ZipSession, ZipThread } from './zip-thread.js';

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
  // Jobs zipped (or left to git) so far: what is left if the zip thread fails midway.
  const done = new Set<ZipJob>();
  const deliver = async (job: ZipJob, zip: Buffer | string) => {
    done.add(job);
    if (typeof zip === 'string') result.fallback.push({ job, reason: zip });
    else await visits.run(() => visit(job, zip), zip.length);
  };
  try {
    const thread = zipThread();
    try {
      await zipWindows(reader, normalized, thread, result, deliver);
    } catch (err) {
      if (!(err instanceof ZipThreadFailed)) throw err;
      // Its zips in flight are lost: the server's thread makes what is left.
      const left = normalized.filter((n) => !done.has(n.job));
      await zipWindows(reader, left, null, result, deliver);
    }
    await visits.drain();
  } finally {
    if (!opts.reader) await reader.close();
  }
  return result;
}

type Normalized = { job: ZipJob; subdir: string };
type Deliver = (job: ZipJob, zip: Buffer | string) => Promise<void>;
type Listed = { job: ZipJob; time: number };

/**
 * The zips of `jobs`, window by window: the server's thread reads each window's trees and blobs;
 * the zip thread, when there is one, makes their pieces and zips while the next window is read.
 */
async function zipWindows(
  reader: ObjectReader,
  jobs: readonly Normalized[],
  thread: ZipThread | null,
  result: ZipBuildResult,
  deliver: Deliver,
): Promise<void> {
  if (jobs.length === 0) return;
  const commits = await readCommits(reader, [...new Set(jobs.map((j) => j.job.commit))]);
  const roots = await Promise.all(
    jobs.map(async ({ job, subdir }) => {
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
  const order = jobs
    .map((n, i) => ({ ...n, root: roots[i]!, time: commits.get(n.job.commit)!.time }))
    .sort((a, b) => a.time - b.time);
  const trees = new TreeSource(reader, jobs[0]!.job.commit.length / 2);
  const pieces = new PieceCache(PIECE_CACHE_BYTES);
  const session = thread?.session() ?? null;
  // The zip thread's windows not yet delivered: the next window is read meanwhile.
  const zipping: Promise<void>[] = [];
  let window = FIRST_WINDOW;
  try {
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
      const wanted = blobsOf(listed);
      let held: number;
      if (session) {
        zipping.push(
          (await zipInThread(session, reader, listed, wanted, result, deliver)).delivered,
        );
        if (zipping.length > 1) await zipping.shift();
        held = session.bytesOf(wanted.keys());
      } else {
        const pinned = await pieces.fill(wanted, (d, max) => readPiece(reader, d, max), result);
        for (const l of listed) {
          const entries = typeof l.drafts === 'string' ? l.drafts : assemble(l.drafts, pinned);
          await deliver(
            l.job,
            typeof entries === 'string' ? entries : writeZip(entries, l.time, l.job.commit),
          );
        }
        held = [...pinned.values()].reduce((n, p) => n + (p?.data.length ?? 0), 0);
        pieces.trim();
      }
      window = held > WINDOW_BYTES ? Math.max(1, window >> 1) : Math.min(512, window * 2);
    }
    await Promise.all(zipping);
  } finally {
    // A failure leaves nothing running behind it (the caller may zip the rest itself).
    await Promise.allSettled(zipping);
    session?.release();
  }
}

/**
 * Reads the blobs of a window the zip thread does not hold (for this session) and sends it the window: answers
 * once it is sent, with the delivery of its zips (to `deliver`) to wait for.
 */
async function zipInThread(
  session: ZipSession,
  reader: ObjectReader,
  listed: readonly (Listed & { drafts: Draft[] | string })[],
  wanted: Map<string, BlobDraft>,
  result: ZipBuildResult,
  deliver: Deliver,
): Promise<{ delivered: Promise<void> }> {
  const missing = session.missing(wanted.keys());
  const blobs: BlobToPiece[] = [];
  await readBlobs(
    missing.map((key) => [key, wanted.get(key)!] as [string, BlobDraft]),
    (d, max) => readBlob(reader, d, max),
    (key, content) => {
      if (content) result.blobs++;
      blobs.push({ key, content, symlink: wanted.get(key)!.kind === 'symlink' });
    },
  );
  const sent = listed.filter((l) => typeof l.drafts !== 'string');
  const zips = session.zip(
    sent.map((l) => ({ drafts: l.drafts as Draft[], time: l.time, commit: l.job.commit })),
    blobs,
    new Set(wanted.keys()),
    PIECE_CACHE_BYTES,
  );
  const delivered = (async () => {
    for (const l of listed) if (typeof l.drafts === 'string') await deliver(l.job, l.drafts);
    const outcomes = await zips;
    for (const [n, outcome] of outcomes.entries()) {
      const job = sent[n]!.job;
      if ('reason' in outcome) await deliver(job, outcome.reason);
      else {
        const zip = outcome.zip;
        await deliver(job, Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength));
      }
    }
  })();
  // Seen by the caller in order; until then a failure here is not an unhandled rejection.
  delivered.catch(() => {});
  return { delivered };
}

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

/** The blob's bytes, or its size when it is over `maxBytes` (its bytes were not kept). */
async function readBlob(reader: ObjectReader, d: BlobDraft, maxBytes: number) {
  const blob = await reader.read(d.oid, maxBytes);
  if (blob?.type !== 'blob') throw new GitError(`Blob ${d.oid} not found`, { kind: 'not-found' });
  return blob.content ?? blob.size;
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
