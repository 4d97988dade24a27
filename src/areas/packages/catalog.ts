import type { Selectable } from 'kysely';
import type { Db } from '../../infra/db/connection.js';
import { forTenant } from '../../infra/db/tenant-scope.js';
import type { PackagesTable, VersionsTable } from '../../infra/db/schema.js';

/**
 * The packages area's published reads: how other areas (the Composer repository, sync, webhooks,
 * artifacts, advisories, monorepo, proxy, collections) look packages and versions up. They read
 * the catalog here and never the area's store.ts (docs/architecture.md, "Areas").
 */

export type PackageRow = Selectable<PackagesTable>;
export type VersionRow = Selectable<VersionsTable>;
type PackageKey = Pick<PackageRow, 'id' | 'tenant_id'>;

export async function findPackageByName(db: Db, tenantId: string, name: string) {
  return forTenant(db, tenantId)
    .selectFrom('packages')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('name', '=', name)
    .executeTakeFirst();
}

export async function findPackageById(db: Db, tenantId: string, id: string) {
  return forTenant(db, tenantId)
    .selectFrom('packages')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The tenant's git-synced packages whose repository key is one of `keys`, by name. */
export async function findPackagesByRepositoryKeys(db: Db, tenantId: string, keys: string[]) {
  return forTenant(db, tenantId)
    .selectFrom('packages')
    .select(['id', 'name'])
    .where('tenant_id', '=', tenantId)
    .where('repository_key', 'in', keys)
    .where('type', '!=', 'artifact')
    .orderBy('name')
    .execute();
}

export async function listVersions(db: Db, pkg: PackageKey) {
  return forTenant(db, pkg.tenant_id)
    .selectFrom('versions')
    .selectAll()
    .where('tenant_id', '=', pkg.tenant_id)
    .where('package_id', '=', pkg.id)
    .execute();
}

/**
 * The bytes of a version's archive within the object dist_key names: a slice of an archive
 * pack (docs/composer.md, "Archive packs"), or (undefined) the whole object.
 */
export function archiveRange(
  v: Pick<VersionRow, 'dist_offset' | 'dist_size'>,
): { offset: number; length: number } | undefined {
  return v.dist_offset === null ? undefined : { offset: v.dist_offset, length: v.dist_size };
}

export async function findVersion(db: Db, pkg: PackageKey, normalized: string) {
  return forTenant(db, pkg.tenant_id)
    .selectFrom('versions')
    .selectAll()
    .where('tenant_id', '=', pkg.tenant_id)
    .where('package_id', '=', pkg.id)
    .where('version_normalized', '=', normalized)
    .executeTakeFirst();
}

/** Packages by lower-case name, in one query. */
export async function packagesByName(
  db: Db,
  tenantId: string,
  names: readonly string[],
): Promise<Map<string, PackageRow>> {
  if (names.length === 0) return new Map();
  const rows = await forTenant(db, tenantId)
    .selectFrom('packages')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('name', 'in', [...new Set(names)])
    .execute();
  return new Map(rows.map((r) => [r.name, r]));
}

/** One of a package's stored p2 documents (`tags` or `dev`): its entries and Last-Modified. */
export function findPackageMetadata(db: Db, tenantId: string, packageId: string, kind: string) {
  return db
    .selectFrom('package_metadata')
    .select(['entries', 'last_modified'])
    .where('tenant_id', '=', tenantId)
    .where('package_id', '=', packageId)
    .where('kind', '=', kind)
    .executeTakeFirst();
}

/** The tenant's packages synced from a repository: name and repository key, by name. */
export function packagesWithRepository(db: Db, tenantId: string) {
  return db
    .selectFrom('packages')
    .select(['name', 'repository_key'])
    .where('tenant_id', '=', tenantId)
    .where('type', '!=', 'artifact')
    .orderBy('name')
    .execute();
}
