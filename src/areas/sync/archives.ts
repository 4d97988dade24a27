import crypto from 'node:crypto';
import type { ArchiveStorage } from '../../infra/storage/storage.js';
import { archiveZip } from '../../infra/git/index.js';

export interface BuiltArchive {
  key: string;
  shasum: string;
  size: number;
}

/** Storage key of the zip of one commit (and subfolder) of a package. */
export function archiveKey(tenantId: string, packageId: string, commit: string, subdir = '') {
  const suffix = subdir
    ? `-${crypto.createHash('sha1').update(subdir).digest('hex').slice(0, 12)}`
    : '';
  return `${tenantId}/${packageId}/${commit}${suffix}.zip`;
}

/**
 * Builds the zips of many commits with a few git processes at a time. Zips are deterministic,
 * so a commit's key always holds the same bytes and SHA-1.
 */
export async function buildArchives(
  storage: ArchiveStorage,
  gitDir: string,
  jobs: { key: string; commit: string; subdir?: string }[],
  opts: { timeoutMs: number; concurrency?: number },
): Promise<Map<string, BuiltArchive>> {
  const built = new Map<string, BuiltArchive>();
  const queue = [...new Map(jobs.map((j) => [j.key, j])).values()];
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const zip = await archiveZip(gitDir, job.commit, {
        subdir: job.subdir,
        timeoutMs: opts.timeoutMs,
      });
      await storage.put(job.key, zip);
      const shasum = crypto.createHash('sha1').update(zip).digest('hex');
      built.set(job.key, { key: job.key, shasum, size: zip.length });
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency ?? 4 }, worker));
  return built;
}
