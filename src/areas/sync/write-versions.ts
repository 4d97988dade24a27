import { newId } from '../../infra/crypto.js';
import type { Db } from '../../infra/db/connection.js';
import { buildVersionEntry } from '../../composer/metadata.js';
import { compareVersions, parseStability } from '../../composer/semver/index.js';
import type { PackageRow } from '../packages/store.js';
import type { Candidate } from './analyze.js';
import { archiveKey } from './archives.js';
import type { BuiltArchive } from './archives.js';
import type { Target } from './types.js';

export function latestVersion(candidates: Candidate[]): string | null {
  const tags = candidates.filter((c) => !c.isDev);
  const stable = tags.filter((c) => parseStability(c.normalized) === 'stable');
  const pool = stable.length > 0 ? stable : tags;
  const best = pool.sort((a, b) => compareVersions(b.normalized, a.normalized))[0];
  return best?.version ?? null;
}

export function describe(candidates: Candidate[]): string | null {
  const source =
    candidates.find((c) => c.defaultBranch) ??
    candidates.find((c) => c.version === latestVersion(candidates));
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

/** Inserts, updates and removes one package's version rows so they match its candidates. */
export async function writeVersions(
  trx: Db,
  t: Target,
  built: Map<string, BuiltArchive>,
  now: string,
): Promise<{ added: string[]; removed: string[] }> {
  const byNormalized = new Map(t.existing.map((v) => [v.version_normalized, v]));
  const added: string[] = [];
  for (const c of t.candidates) {
    const previous = byNormalized.get(c.normalized);
    const archive = built.get(archiveKey(t.pkg.tenant_id, t.pkg.id, c.commit, c.subdir));
    const dist = archive
      ? { dist_key: archive.key, dist_shasum: archive.shasum, dist_size: archive.size }
      : {
          dist_key: previous!.dist_key,
          dist_shasum: previous!.dist_shasum,
          dist_size: previous!.dist_size,
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
      updated_at: now,
    };
    if (previous) {
      if (
        previous.metadata !== metadata ||
        previous.reference !== c.commit ||
        previous.dist_key !== dist.dist_key
      ) {
        await trx
          .updateTable('versions')
          .set(values)
          .where('tenant_id', '=', t.pkg.tenant_id)
          .where('id', '=', previous.id)
          .execute();
      }
    } else {
      added.push(c.version);
      await trx
        .insertInto('versions')
        .values({
          id: newId(),
          tenant_id: t.pkg.tenant_id,
          package_id: t.pkg.id,
          version_normalized: c.normalized,
          is_dev: c.isDev ? 1 : 0,
          yanked: 0,
          deprecated: 0,
          created_at: now,
          ...values,
        })
        .execute();
    }
  }
  const keep = new Set(t.candidates.map((c) => c.normalized));
  const removed = t.existing.filter((v) => !keep.has(v.version_normalized));
  if (removed.length > 0) {
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
  return { added, removed: removed.map((v) => v.version) };
}
