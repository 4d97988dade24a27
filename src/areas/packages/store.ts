import { pageOf } from '../../infra/db/page.js';
import type { Selectable } from 'kysely';
import type { Db } from '../../infra/db/connection.js';
import { forTenant } from '../../infra/db/tenant-scope.js';
import type { PackagesTable, VersionsTable } from '../../infra/db/schema.js';

export type PackageRow = Selectable<PackagesTable>;
export type VersionRow = Selectable<VersionsTable>;

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

export async function listPackages(
  db: Db,
  tenantId: string,
  filter: { q?: string; offset: number; limit: number },
) {
  let base = db.selectFrom('packages').where('tenant_id', '=', tenantId);
  if (filter.q)
    base = base.where('name', 'like', `%${filter.q.toLowerCase().replace(/[%_]/g, '')}%`);
  return pageOf(base, (qb) => qb.selectAll().orderBy('name', 'asc'), filter);
}

type PackageKey = Pick<PackageRow, 'id' | 'tenant_id'>;

export async function listVersions(db: Db, pkg: PackageKey) {
  return forTenant(db, pkg.tenant_id)
    .selectFrom('versions')
    .selectAll()
    .where('tenant_id', '=', pkg.tenant_id)
    .where('package_id', '=', pkg.id)
    .execute();
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

/** Downloads per normalized version of one package, all time. */
export async function downloadsByVersion(db: Db, pkg: PackageKey): Promise<Map<string, number>> {
  const rows = await forTenant(db, pkg.tenant_id)
    .selectFrom('downloads')
    .select(['version_normalized', (eb) => eb.fn.sum<number>('count').as('n')])
    .where('tenant_id', '=', pkg.tenant_id)
    .where('package_id', '=', pkg.id)
    .groupBy('version_normalized')
    .execute();
  return new Map(rows.map((r) => [r.version_normalized, Number(r.n)]));
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

/** The versions of many packages, with their all-time downloads, in two queries. */
export async function versionsOfPackages(
  db: Db,
  tenantId: string,
  packageIds: readonly string[],
): Promise<Map<string, { row: VersionRow; downloads: number }[]>> {
  const out = new Map<string, { row: VersionRow; downloads: number }[]>(
    packageIds.map((id) => [id, []]),
  );
  if (packageIds.length === 0) return out;
  const ids = [...new Set(packageIds)];
  const [versions, downloads] = await Promise.all([
    forTenant(db, tenantId)
      .selectFrom('versions')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('package_id', 'in', ids)
      .execute(),
    forTenant(db, tenantId)
      .selectFrom('downloads')
      .select(['package_id', 'version_normalized', (eb) => eb.fn.sum<number>('count').as('n')])
      .where('tenant_id', '=', tenantId)
      .where('package_id', 'in', ids)
      .groupBy(['package_id', 'version_normalized'])
      .execute(),
  ]);
  const counts = new Map(
    downloads.map((d) => [`${d.package_id}@${d.version_normalized}`, Number(d.n)]),
  );
  for (const row of versions) {
    out.get(row.package_id)?.push({
      row,
      downloads: counts.get(`${row.package_id}@${row.version_normalized}`) ?? 0,
    });
  }
  return out;
}
