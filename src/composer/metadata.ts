import type { Db } from '../infra/db/connection.js';
import { forTenant } from '../infra/db/tenant-scope.js';
import { compareVersions } from './semver/index.js';

/** composer.json keys that belong in a version's metadata (Composer's ArrayDumper set). */
const METADATA_KEYS = [
  'description',
  'keywords',
  'homepage',
  'license',
  'authors',
  'type',
  'require',
  'require-dev',
  'conflict',
  'replace',
  'provide',
  'suggest',
  'autoload',
  'autoload-dev',
  'include-path',
  'target-dir',
  'bin',
  'extra',
  'support',
  'funding',
  'abandoned',
  'archive',
  'notification-url',
  'minimum-stability',
] as const;

/** A version entry as stored: everything but the absolute dist URL, which depends on the host. */
export type VersionEntry = Record<string, unknown> & {
  name: string;
  version: string;
  version_normalized: string;
};

export interface EntryInput {
  name: string;
  version: string;
  normalized: string;
  reference: string;
  shasum: string;
  time: string | null;
  defaultBranch: boolean;
  composer: Record<string, unknown>;
}

export function buildVersionEntry(input: EntryInput): VersionEntry {
  const entry: VersionEntry = {
    name: input.name,
    version: input.version,
    version_normalized: input.normalized,
  };
  for (const key of METADATA_KEYS) {
    if (input.composer[key] !== undefined) entry[key] = input.composer[key];
  }
  if (input.time) entry.time = input.time;
  if (input.defaultBranch) entry['default-branch'] = true;
  entry.dist = { type: 'zip', reference: input.reference, shasum: input.shasum };
  return entry;
}

/** One stored metadata line: the normalized version (for filtering) and its entry. */
export interface StoredEntry {
  n: string;
  e: VersionEntry;
}

export type MetadataKind = 'tags' | 'dev';

/**
 * Rebuilds the precomputed tags and ~dev documents of a package from its version rows, so the
 * protocol routes only filter them. The timestamp moves only when a document really changed,
 * which keeps clients' If-Modified-Since caches warm.
 */
export async function rebuildPackageMetadata(
  db: Db,
  tenantId: string,
  packageId: string,
): Promise<void> {
  const bound = forTenant(db, tenantId);
  const rows = await bound
    .selectFrom('versions')
    .select(['version_normalized', 'is_dev', 'metadata', 'deprecated'])
    .where('tenant_id', '=', tenantId)
    .where('package_id', '=', packageId)
    .where('yanked', '=', 0)
    .execute();
  rows.sort((a, b) => compareVersions(b.version_normalized, a.version_normalized));
  // Each StoredEntry is written as JSON text: a row's metadata is JSON.stringify output already,
  // so it goes in as it is (the same bytes as stringifying it parsed), and is parsed only to
  // mark it deprecated. A package of 1,000 versions is rebuilt at every sync that adds one.
  const docs: Record<MetadataKind, string[]> = { tags: [], dev: [] };
  for (const row of rows) {
    let e = row.metadata;
    if (row.deprecated === 1) {
      const parsed = JSON.parse(e) as VersionEntry;
      parsed.deprecated = true;
      e = JSON.stringify(parsed);
    }
    docs[row.is_dev === 1 ? 'dev' : 'tags'].push(
      `{"n":${JSON.stringify(row.version_normalized)},"e":${e}}`,
    );
  }
  const existing = await bound
    .selectFrom('package_metadata')
    .select(['kind', 'entries'])
    .where('tenant_id', '=', tenantId)
    .where('package_id', '=', packageId)
    .execute();
  const now = new Date();
  now.setMilliseconds(0); // Last-Modified has second precision
  for (const kind of ['tags', 'dev'] as const) {
    const entries = `[${docs[kind].join(',')}]`;
    const previous = existing.find((r) => r.kind === kind);
    if (previous?.entries === entries) continue;
    await bound
      .insertInto('package_metadata')
      .values({
        tenant_id: tenantId,
        package_id: packageId,
        kind,
        entries,
        last_modified: now.toISOString(),
      })
      .onConflict((oc) =>
        oc
          .columns(['package_id', 'kind'])
          .doUpdateSet({ entries, last_modified: now.toISOString() }),
      )
      .execute();
  }
}
