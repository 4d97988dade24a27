import crypto from 'node:crypto';
import type { ArchiveStorage } from '../../infra/storage/storage.js';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { archiveZip, archiveZipFiles } from '../../infra/git/index.js';

export interface BuiltArchive {
  key: string;
  shasum: string;
  size: number;
}

export interface ArchiveJob {
  key: string;
  commit: string;
  subdir?: string;
}

/** Commits zipped per batch: bounds the memory and temp space one batch holds. */
const BATCH = 200;
/** Subfolder zips built at the same time. */
const SUBDIR_CONCURRENCY = 8;

/** Storage key of the zip of one commit (and subfolder) of a package. */
export function archiveKey(tenantId: string, packageId: string, commit: string, subdir = '') {
  const suffix = subdir
    ? `-${crypto.createHash('sha1').update(subdir).digest('hex').slice(0, 12)}`
    : '';
  return `${tenantId}/${packageId}/${commit}${suffix}.zip`;
}

/**
 * Builds and stores the zips of many commits. Zips are deterministic, so a key always holds the
 * same bytes and SHA-1. Whole-tree zips are made in batches by one launcher process each.
 */
export async function buildArchives(
  storage: ArchiveStorage,
  gitDir: string,
  jobs: ArchiveJob[],
  opts: { timeoutMs: number },
): Promise<Map<string, BuiltArchive>> {
  const built = new Map<string, BuiltArchive>();
  const unique = [...new Map(jobs.map((j) => [j.key, j])).values()];
  const store = async (job: ArchiveJob, body: Readable) => {
    const { sha1, size } = await storage.putStream(job.key, body);
    built.set(job.key, { key: job.key, shasum: sha1, size });
  };
  const whole = unique.filter((j) => !j.subdir);
  for (let i = 0; i < whole.length; i += BATCH) {
    const batch = whole.slice(i, i + BATCH);
    const byCommit = new Map<string, ArchiveJob[]>();
    for (const job of batch) byCommit.set(job.commit, [...(byCommit.get(job.commit) ?? []), job]);
    // Each zip streams from its temp file into storage; no batch is held in memory.
    await archiveZipFiles(
      gitDir,
      [...byCommit.keys()],
      { timeoutMs: opts.timeoutMs },
      async (commit, file) => {
        for (const job of byCommit.get(commit) ?? []) await store(job, createReadStream(file));
      },
    );
  }
  // Subfolder zips take a few git processes each; run several at once (monorepo children).
  const partial = unique.filter((j) => j.subdir);
  for (let i = 0; i < partial.length; i += SUBDIR_CONCURRENCY) {
    await Promise.all(
      partial.slice(i, i + SUBDIR_CONCURRENCY).map(async (job) =>
        store(
          job,
          Readable.from([
            await archiveZip(gitDir, job.commit, {
              subdir: job.subdir,
              timeoutMs: opts.timeoutMs,
            }),
          ]),
        ),
      ),
    );
  }
  return built;
}
