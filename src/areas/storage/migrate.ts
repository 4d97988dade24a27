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

/**
 * The SHA-1 every version archive must have (dist_key -> dist_shasum, all tenants), so a damaged
 * source object is reported instead of copied. Objects not named here (proxy archives) are
 * verified against the bytes read from the source.
 */
export async function expectedShasums(db: Kysely<Database>): Promise<Map<string, string>> {
  const rows = await unscoped(db, 'archives of every tenant move together')
    .selectFrom('versions')
    .select(['dist_key', 'dist_shasum'])
    .execute();
  return new Map(rows.map((r) => [r.dist_key, r.dist_shasum]));
}

/**
 * Copies every archive from one storage to another, streamed. Resumable: an object already at
 * the destination with the right SHA-1 is skipped, so an interrupted run is simply run again.
 * Each copied object is read back from the destination and its SHA-1 compared.
 */
export async function migrateArchives(
  from: ArchiveStorage,
  to: ArchiveStorage,
  opts: { expected?: Map<string, string>; progress?: (line: string) => void } = {},
): Promise<MigrationReport> {
  const report: MigrationReport = { copied: 0, skipped: 0, bytes: 0, failed: [] };
  const expected = opts.expected ?? new Map<string, string>();

  const migrateOne = async (key: string): Promise<void> => {
    const want = expected.get(key) ?? null;
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
