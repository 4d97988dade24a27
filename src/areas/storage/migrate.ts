import crypto from 'node:crypto';
import { unscoped } from '../../infra/db/tenant-scope.js';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../../infra/db/schema.js';
import type { ArchiveStorage } from '../../infra/storage/storage.js';

export interface MigrationReport {
  /** Objects written to the destination and verified there. */
  copied: number;
  /** Objects already at the destination with the right SHA-1 (an earlier, interrupted run). */
  skipped: number;
  bytes: number;
  failed: { key: string; reason: string }[];
}

/** Objects copied at the same time. */
const CONCURRENCY = 4;

async function sha1Of(body: Readable): Promise<string> {
  const hash = crypto.createHash('sha1');
  for await (const chunk of body) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function storedSha1(storage: ArchiveStorage, key: string): Promise<string | null> {
  const read = await storage.getStream(key);
  return read ? sha1Of(read.body) : null;
}

/** One version's zip inside an archive pack (docs/composer.md, "Archive packs"). */
export interface PackSlice {
  offset: number;
  length: number;
  sha1: string;
}

/** What a copied object must hold: its SHA-1, or (a pack) the SHA-1 of each slice. */
export type Expected = string | PackSlice[];

/**
 * The SHA-1 every version archive must have (all tenants): a whole object's, or each slice's of
 * an archive pack, so a damaged source object is reported instead of copied. Objects not named
 * here (proxy archives) are verified against the bytes read from the source.
 */
export async function expectedShasums(db: Kysely<Database>): Promise<Map<string, Expected>> {
  const rows = await unscoped(db, 'archives of every tenant move together')
    .selectFrom('versions')
    .select(['dist_key', 'dist_offset', 'dist_size', 'dist_shasum'])
    .execute();
  const out = new Map<string, Expected>();
  for (const r of rows) {
    if (r.dist_offset === null) {
      out.set(r.dist_key, r.dist_shasum);
      continue;
    }
    const slices = out.get(r.dist_key);
    const slice = { offset: r.dist_offset, length: r.dist_size, sha1: r.dist_shasum };
    if (Array.isArray(slices)) slices.push(slice);
    else out.set(r.dist_key, [slice]);
  }
  return out;
}

/** The first slice of `body` (a pack) whose SHA-1 is not the expected one, described. */
async function sliceProblem(body: Readable, slices: PackSlice[]): Promise<string | null> {
  const sorted = [...new Map(slices.map((s) => [s.offset, s])).values()].sort(
    (a, b) => a.offset - b.offset,
  );
  const hashes = sorted.map(() => crypto.createHash('sha1'));
  let position = 0;
  for await (const chunk of body) {
    const bytes = chunk as Buffer;
    const end = position + bytes.length;
    sorted.forEach((s, i) => {
      const from = Math.max(s.offset, position);
      const to = Math.min(s.offset + s.length, end);
      if (from < to) hashes[i]!.update(bytes.subarray(from - position, to - position));
    });
    position = end;
  }
  for (const [i, s] of sorted.entries()) {
    const got = hashes[i]!.digest('hex');
    if (got !== s.sha1)
      return `source SHA-1 ${got} of bytes ${s.offset}+${s.length}, expected ${s.sha1}`;
  }
  return null;
}

export async function migrateArchives(
  from: ArchiveStorage,
  to: ArchiveStorage,
  opts: { expected?: Map<string, Expected>; progress?: (line: string) => void } = {},
): Promise<MigrationReport> {
  const report: MigrationReport = { copied: 0, skipped: 0, bytes: 0, failed: [] };
  const expected = opts.expected ?? new Map<string, Expected>();

  const migrateOne = async (key: string): Promise<void> => {
    const wanted = expected.get(key) ?? null;
    const slices = Array.isArray(wanted) ? wanted : null;
    // A pack's own SHA-1 is not published: its copy is checked slice by slice below.
    const want = typeof wanted === 'string' ? wanted : null;
    const there = await storedSha1(to, key);
    if (there !== null && there === (want ?? (await storedSha1(from, key)))) {
      report.skipped += 1;
      return;
    }
    const source = await from.getStream(key);
    if (!source) return; // removed since it was listed (cleanup): nothing to move
    const written = await to.putStream(key, source.body);
    if (want !== null && written.sha1 !== want) {
      await to.delete(key);
      report.failed.push({ key, reason: `source SHA-1 ${written.sha1}, expected ${want}` });
      return;
    }
    const check = await storedSha1(to, key);
    if (check !== written.sha1) {
      report.failed.push({ key, reason: `destination SHA-1 ${check}, expected ${written.sha1}` });
      return;
    }
    const copy = slices ? await to.getStream(key) : null;
    const problem = copy && slices ? await sliceProblem(copy.body, slices) : null;
    if (problem) {
      await to.delete(key);
      report.failed.push({ key, reason: problem });
      return;
    }
    report.copied += 1;
    report.bytes += written.size;
    const done = report.copied + report.skipped;
    if (done % 100 === 0) opts.progress?.(`${done} archives done`);
  };

  const keys = from.list('')[Symbol.asyncIterator]();
  const worker = async (): Promise<void> => {
    for (;;) {
      const next = await keys.next();
      if (next.done) return;
      try {
        await migrateOne(next.value.key);
      } catch (err) {
        report.failed.push({ key: next.value.key, reason: (err as Error).message });
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return report;
}
