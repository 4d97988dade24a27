import crypto from 'node:crypto';
import type { ArchiveStorage } from '../../infra/storage/storage.js';
import { archiveZip, archiveZips } from '../../infra/git/index.js';

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
  const store = async (job: ArchiveJob, zip: Buffer) => {
    await storage.put(job.key, zip);
    const shasum = crypto.createHash('sha1').update(zip).digest('hex');
    built.set(job.key, { key: job.key, shasum, size: zip.length });
  };
  const whole = unique.filter((j) => !j.subdir);
  for (let i = 0; i < whole.length; i += BATCH) {
    const batch = whole.slice(i, i + BATCH);
    const zips = await archiveZips(
      gitDir,
      batch.map((j) => j.commit),
      { timeoutMs: opts.timeoutMs },
    );
    for (const job of batch) {
      const zip = zips.get(job.commit);
      if (!zip) throw new Error(`git archive produced no zip for ${job.commit}`);
      await store(job, zip);
    }
  }
  // Subfolder zips take a few git processes each; run several at once (monorepo children).
  const partial = unique.filter((j) => j.subdir);
  for (let i = 0; i < partial.length; i += SUBDIR_CONCURRENCY) {
    await Promise.all(
      partial
        .slice(i, i + SUBDIR_CONCURRENCY)
        .map(async (job) =>
          store(
            job,
            await archiveZip(gitDir, job.commit, { subdir: job.subdir, timeoutMs: opts.timeoutMs }),
          ),
        ),
    );
  }
  return built;
}
