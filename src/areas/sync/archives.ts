import crypto from 'node:crypto';
import type { ArchiveStorage } from '../../infra/storage/storage.js';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { archiveZip, archiveZipFiles, buildZips } from '../../infra/git/index.js';
import type { ObjectReader, ZipJob } from '../../infra/git/index.js';
import type { VersionRow } from '../packages/catalog.js';
import type { ArchiveJob, BuiltArchive, Target } from './types.js';
import { ArchivePacks, isPackOf } from './archive-packs.js';

export type { ArchiveJob, BuiltArchive };

/**
 * Who made an archive, as its storage key says: `git` (`git archive`, the keys of every archive
 * made before `zip1`) or `zip1` (zip-build.ts: the same files, assembled from pieces compressed
 * once per sync by Node's zlib, so other bytes). Keys never change meaning, so a stored archive,
 * whose SHA-1 lock files hold, is never rewritten with other bytes.
 */
export type ArchiveFormat = 'git' | 'zip1';

/** Commits zipped per `git archive` batch: bounds the memory and temp space one batch holds. */
const BATCH = 200;
/** Subfolder zips built by git at the same time. */
const SUBDIR_CONCURRENCY = 8;
/** Archives written to storage at the same time. */
const STORE_CONCURRENCY = 64;

/** Storage key of the zip of one commit (and subfolder) of a package, made by `format`. */
export function archiveKey(
  tenantId: string,
  packageId: string,
  commit: string,
  subdir = '',
  /** `git` (the default) is also the key artifact uploads have always used. */
  format: ArchiveFormat = 'git',
): string {
  const suffix = subdir
    ? `-${crypto.createHash('sha1').update(subdir).digest('hex').slice(0, 12)}`
    : '';
  return `${tenantId}/${packageId}/${commit}${suffix}${format === 'zip1' ? '.z1' : ''}.zip`;
}

/**
 * Whether a version's stored archive is the zip of this commit and folder of the package, by any
 * builder. A pack's slice is always the zip of its own version's commit (the caller checks the
 * commit) at the package root: packs hold no folder zips.
 */
export function isArchiveOf(
  stored: { dist_key: string; dist_offset: number | null },
  job: ArchiveJob,
): boolean {
  const { tenantId, packageId, commit, subdir } = job;
  const key = stored.dist_key;
  if (stored.dist_offset !== null) return !subdir && isPackOf(key, job);
  return (
    key === archiveKey(tenantId, packageId, commit, subdir, 'zip1') ||
    key === archiveKey(tenantId, packageId, commit, subdir, 'git')
  );
}

/** What identifies a job in `buildArchives`' answer, whichever key its zip was stored under. */
export const archiveSlot = (job: ArchiveJob): string =>
  `${job.tenantId}/${job.packageId}/${job.commit}:${job.subdir ?? ''}`;

/**
 * Builds and stores the zips of many commits, answered by archiveSlot. Every zip is built by
 * buildZips (one object read for the whole sync): a package root's zips go into archive packs
 * (archive-packs.ts), a folder's (monorepo children) each under its `zip1` key. Those buildZips
 * leaves to git (attributes that change file contents, very large files) are built by `git
 * archive` under the keys archives always had. All are deterministic, and no key is ever
 * written twice with other bytes.
 */
export async function buildArchives(
  storage: ArchiveStorage,
  gitDir: string,
  jobs: ArchiveJob[],
  opts: { timeoutMs: number; reader?: ObjectReader },
): Promise<Map<string, BuiltArchive>> {
  const built = new Map<string, BuiltArchive>();
  // Jobs of the same commit and folder (a tag and a branch, several packages) share one zip.
  const byZip = new Map<string, { zip: ZipJob; jobs: ArchiveJob[] }>();
  for (const job of jobs) {
    const id = `${job.commit}:${job.subdir ?? ''}`;
    const entry = byZip.get(id) ?? {
      zip: job.subdir ? { commit: job.commit, subdir: job.subdir } : { commit: job.commit },
      jobs: [],
    };
    if (!entry.jobs.some((j) => archiveSlot(j) === archiveSlot(job))) entry.jobs.push(job);
    byZip.set(id, entry);
  }
  const owners = new Map([...byZip.values()].map((e) => [e.zip, e.jobs]));
  const packs = new ArchivePacks(storage, (job, archive) => built.set(archiveSlot(job), archive));
  const { fallback } = await buildZips(
    gitDir,
    [...owners.keys()],
    { timeoutMs: opts.timeoutMs, concurrency: STORE_CONCURRENCY, reader: opts.reader },
    async (zip, bytes) => {
      const shasum = crypto.createHash('sha1').update(bytes).digest('hex');
      for (const job of owners.get(zip) ?? []) {
        if (!job.subdir) {
          await packs.add(job, bytes, shasum);
          continue;
        }
        const key = archiveKey(job.tenantId, job.packageId, job.commit, job.subdir, 'zip1');
        await storage.put(key, bytes);
        built.set(archiveSlot(job), { key, shasum, size: bytes.length, offset: null });
      }
    },
  );
  await packs.flush();
  const left = fallback.flatMap(({ job }) => owners.get(job) ?? []);
  for (const [slot, archive] of await gitArchives(storage, gitDir, left, opts)) {
    built.set(slot, archive);
  }
  return built;
}

/** The zips of `jobs` made by `git archive`, under their `git` keys. */
async function gitArchives(
  storage: ArchiveStorage,
  gitDir: string,
  jobs: ArchiveJob[],
  opts: { timeoutMs: number },
): Promise<Map<string, BuiltArchive>> {
  const built = new Map<string, BuiltArchive>();
  const store = async (job: ArchiveJob, body: Readable) => {
    const key = archiveKey(job.tenantId, job.packageId, job.commit, job.subdir, 'git');
    const { sha1, size } = await storage.putStream(key, body);
    built.set(archiveSlot(job), { key, shasum: sha1, size, offset: null });
  };
  const whole = jobs.filter((j) => !j.subdir);
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
  const partial = jobs.filter((j) => j.subdir);
  for (let i = 0; i < partial.length; i += SUBDIR_CONCURRENCY) {
    await Promise.all(
      partial.slice(i, i + SUBDIR_CONCURRENCY).map(async (job) => {
        const zip = await archiveZip(gitDir, job.commit, {
          subdir: job.subdir,
          timeoutMs: opts.timeoutMs,
        });
        await store(job, Readable.from([zip]));
      }),
    );
  }
  return built;
}

/**
 * The zips a sync must build: one per commit and folder of a version whose stored archive is not
 * of that commit. A version still at its commit keeps its archive (and SHA-1) whichever builder
 * made it; one whose commit another stored version already has an archive of reuses that one.
 */
export function archiveJobs(targets: Target[]): {
  jobs: ArchiveJob[];
  reused: Map<string, BuiltArchive>;
} {
  const jobs: ArchiveJob[] = [];
  const reused = new Map<string, BuiltArchive>();
  for (const t of targets) {
    const byNormalized = new Map(t.existing.map((v) => [v.version_normalized, v]));
    const byCommit = new Map<string, VersionRow[]>();
    for (const v of t.existing)
      byCommit.set(v.reference, [...(byCommit.get(v.reference) ?? []), v]);
    for (const c of t.candidates) {
      const job: ArchiveJob = {
        tenantId: t.pkg.tenant_id,
        packageId: t.pkg.id,
        commit: c.commit,
        ...(c.subdir ? { subdir: c.subdir } : {}),
      };
      const previous = byNormalized.get(c.normalized);
      if (previous?.reference === c.commit && isArchiveOf(previous, job)) continue;
      const same = byCommit.get(c.commit)?.find((v) => isArchiveOf(v, job));
      if (same) {
        reused.set(archiveSlot(job), {
          key: same.dist_key,
          shasum: same.dist_shasum,
          size: same.dist_size,
          offset: same.dist_offset,
        });
      } else jobs.push(job);
    }
  }
  return { jobs, reused };
}
