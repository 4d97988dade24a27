import { newId } from '../../infra/crypto.js';
import type { Insertable } from 'kysely';
import type { Db } from '../../infra/db/connection.js';
import type { VersionsTable } from '../../infra/db/schema.js';
import { buildVersionEntry, rebuildPackageMetadata } from '../../composer/metadata.js';
import { compareVersions, parseStability } from '../../composer/semver/index.js';
import type { PackageRow } from '../packages/catalog.js';
import type { Candidate } from './analyze.js';
import { archiveSlot, isArchiveOf } from './archives.js';
import type { ArchiveJob, BuiltArchive } from './archives.js';
import type { ChildResult, Target } from './types.js';
import { storeReadmes } from './package-readmes.js';

/** Rows per INSERT: 17 columns each stays far below SQLite's and PostgreSQL's bound variables. */
const INSERT_BATCH = 200;

/** Normalized versions known stable or not (a package's old tags are asked at every sync). */
const stableVersions = new Map<string, boolean>();

function isStable(normalized: string): boolean {
  let stable = stableVersions.get(normalized);
  if (stable === undefined) {
    stable = parseStability(normalized) === 'stable';
    if (stableVersions.size >= 200_000) stableVersions.clear();
    stableVersions.set(normalized, stable);
  }
  return stable;
}

/** The greatest tag, stable ones first (one pass: a package may have thousands). */
function latestTag(candidates: Candidate[]): Candidate | undefined {
  let best: Candidate | undefined;
  let bestStable = false;
  for (const c of candidates) {
    if (c.isDev) continue;
    const stable = isStable(c.normalized);
    if (bestStable && !stable) continue;
    if (!best || (stable && !bestStable) || compareVersions(c.normalized, best.normalized) > 0) {
      best = c;
      bestStable = stable;
    }
  }
  return best;
}

export function latestVersion(candidates: Candidate[]): string | null {
  return latestTag(candidates)?.version ?? null;
}

export function describe(
  candidates: Candidate[],
  latest: Candidate | undefined = latestTag(candidates),
): string | null {
  const source = candidates.find((c) => c.defaultBranch) ?? latest;
  const description = source?.composer.description;
  return typeof description === 'string' ? description : null;
}

/** The parent id of a monorepo child, or null. */
export async function monorepoParentOf(
  db: Db,
  tenantId: string,
  packageId: string,
): Promise<string | null> {
  const row = await db
    .selectFrom('monorepo_children')
    .select('parent_id')
    .where('tenant_id', '=', tenantId)
    .where('package_id', '=', packageId)
    .executeTakeFirst();
  return row?.parent_id ?? null;
}

export function newChildRow(parent: PackageRow, name: string, now: string): PackageRow {
  return {
    id: newId(),
    tenant_id: parent.tenant_id,
    name,
    description: null,
    repository_url: parent.repository_url,
    repository_key: parent.repository_key,
    type: 'git',
    latest_version: null,
    default_branch: null,
    readme: null,
    synced_at: null,
    sync_status: 'running',
    sync_error: null,
    sync_skipped: '[]',
    abandoned: 0,
    created_at: now,
    updated_at: now,
  };
}

/**
 * Inserts, updates and removes one package's version rows so they match its candidates. A
 * version still at its commit keeps its archive; one the sync did not read again (`unchanged`)
 * is not written at all. `changed`: whether any row was written.
 */
export async function writeVersions(
  trx: Db,
  t: Target,
  built: Map<string, BuiltArchive>,
  now: string,
): Promise<{ added: string[]; removed: string[]; changed: boolean }> {
  const byNormalized = new Map(t.existing.map((v) => [v.version_normalized, v]));
  const added: string[] = [];
  const inserts: Insertable<VersionsTable>[] = [];
  let changed = false;
  for (const c of t.candidates) {
    const previous = byNormalized.get(c.normalized);
    const job: ArchiveJob = {
      tenantId: t.pkg.tenant_id,
      packageId: t.pkg.id,
      commit: c.commit,
      ...(c.subdir ? { subdir: c.subdir } : {}),
    };
    const keep = previous?.reference === c.commit && isArchiveOf(previous, job);
    if (keep && c.unchanged) continue;
    const archive = keep ? previous : built.get(archiveSlot(job));
    if (!archive) throw new Error(`No archive was built for ${c.ref} (${c.commit})`);
    const dist =
      'dist_key' in archive
        ? {
            dist_key: archive.dist_key,
            dist_shasum: archive.dist_shasum,
            dist_size: archive.dist_size,
            dist_offset: archive.dist_offset,
          }
        : {
            dist_key: archive.key,
            dist_shasum: archive.shasum,
            dist_size: archive.size,
            dist_offset: archive.offset,
          };
    const metadata = JSON.stringify(
      buildVersionEntry({
        name: t.pkg.name,
        version: c.version,
        normalized: c.normalized,
        reference: c.commit,
        shasum: dist.dist_shasum,
        time: c.time,
        defaultBranch: c.defaultBranch,
        composer: c.composer,
      }),
    );
    const values = {
      version: c.version,
      reference: c.commit,
      released_at: c.time,
      metadata,
      ...dist,
      readme_blob: c.readmeBlob ?? previous?.readme_blob ?? null,
      updated_at: now,
    };
    if (previous) {
      const rowChanged =
        previous.metadata !== metadata ||
        previous.reference !== c.commit ||
        previous.dist_key !== dist.dist_key ||
        previous.dist_offset !== dist.dist_offset;
      // A README found anew changes no metadata document (readmes.ts).
      if (rowChanged || previous.readme_blob !== values.readme_blob) {
        changed ||= rowChanged;
        await trx
          .updateTable('versions')
          .set(values)
          .where('tenant_id', '=', t.pkg.tenant_id)
          .where('id', '=', previous.id)
          .execute();
      }
    } else {
      added.push(c.version);
      inserts.push({
        id: newId(),
        tenant_id: t.pkg.tenant_id,
        package_id: t.pkg.id,
        version_normalized: c.normalized,
        is_dev: c.isDev ? 1 : 0,
        yanked: 0,
        deprecated: 0,
        created_at: now,
        ...values,
      });
    }
  }
  // New versions go in by the hundred: one statement (and one tenant check) per batch.
  for (let i = 0; i < inserts.length; i += INSERT_BATCH) {
    changed = true;
    await trx
      .insertInto('versions')
      .values(inserts.slice(i, i + INSERT_BATCH))
      .execute();
  }
  const keep = new Set(t.candidates.map((c) => c.normalized));
  const removed = t.existing.filter((v) => !keep.has(v.version_normalized));
  if (removed.length > 0) {
    changed = true;
    await trx
      .deleteFrom('versions')
      .where('tenant_id', '=', t.pkg.tenant_id)
      .where(
        'id',
        'in',
        removed.map((v) => v.id),
      )
      .execute();
  }
  return { added, removed: removed.map((v) => v.version), changed };
}

/** Throws the reason a sync made no version at all (nothing is written then). */
export function assertSomeVersion(root: Target, children: Target[], monorepo: boolean): void {
  const childVersions = children.reduce((n, c) => n + c.candidates.length, 0);
  if (root.candidates.length > 0 || childVersions > 0) return;
  const skipped = root.skipped;
  const noComposer = skipped.length === 0 || skipped.every((s) => s.reason.startsWith('no '));
  throw new Error(
    monorepo && noComposer
      ? 'No tag or branch of the repository has a composer.json at its root or in a folder matching the monorepo paths'
      : noComposer
        ? 'No tag or branch of the repository has a composer.json'
        : `No tag or branch could become a version: ${skipped
            .map((s) => `${s.ref}: ${s.reason}`)
            .slice(0, 5)
            .join('; ')}`,
  );
}

/**
 * Writes one package of a sync (the synced one, or a monorepo child of `parent`) in the sync's
 * transaction: its child link, its versions, its row, and its metadata documents when a
 * version changed.
 */
export async function writeTarget(
  trx: Db,
  t: Target,
  parent: PackageRow,
  built: Map<string, BuiltArchive>,
  now: string,
): Promise<{ result: ChildResult; changed: boolean }> {
  const isRoot = t.pkg.id === parent.id;
  if (t.isNew) {
    await trx.insertInto('packages').values(t.pkg).execute();
    await trx
      .insertInto('monorepo_children')
      .values({
        package_id: t.pkg.id,
        tenant_id: t.pkg.tenant_id,
        parent_id: parent.id,
        path: t.path,
      })
      .execute();
  } else if (!isRoot) {
    await trx
      .updateTable('monorepo_children')
      .set({ path: t.path })
      .where('tenant_id', '=', t.pkg.tenant_id)
      .where('package_id', '=', t.pkg.id)
      .execute();
  }
  const { added, removed, changed } = await writeVersions(trx, t, built, now);
  await storeReadmes(trx, t, removed.length > 0);
  const latest = latestTag(t.candidates);
  await trx
    .updateTable('packages')
    .set({
      description: describe(t.candidates, latest),
      latest_version: latest?.version ?? null,
      default_branch: t.candidates.find((c) => c.defaultBranch)?.ref ?? null,
      readme: t.readme,
      synced_at: now,
      sync_status: 'ok',
      sync_error: null,
      sync_skipped: JSON.stringify(t.skipped),
      abandoned: t.candidates.some((c) => c.defaultBranch && c.composer.abandoned) ? 1 : 0,
      ...(isRoot
        ? {}
        : { repository_url: parent.repository_url, repository_key: parent.repository_key }),
      updated_at: now,
    })
    .where('tenant_id', '=', t.pkg.tenant_id)
    .where('id', '=', t.pkg.id)
    .execute();
  if (changed || t.isNew) await rebuildPackageMetadata(trx, t.pkg.tenant_id, t.pkg.id);
  const result = {
    name: t.pkg.name,
    path: t.path,
    versions: t.candidates.length,
    versions_added: added,
    versions_removed: removed,
  };
  return { result, changed: changed || t.isNew };
}
