import { pageOf } from '../../infra/db/page.js';
import type { Db } from '../../infra/db/connection.js';
import { forTenant } from '../../infra/db/tenant-scope.js';
import type { PackageRow, VersionRow } from './catalog.js';

export type { PackageRow, VersionRow } from './catalog.js';
export {
  findPackageById,
  findPackageByName,
  findPackagesByRepositoryKeys,
  findVersion,
  listVersions,
  packagesByName,
} from './catalog.js';

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

/** Inserts a package row, and its monorepo folder globs when it is a monorepo parent. */
export async function insertPackage(db: Db, row: PackageRow, monorepoPaths?: string[] | null) {
  await db.insertInto('packages').values(row).execute();
  if (monorepoPaths) {
    await db
      .insertInto('monorepos')
      .values({
        package_id: row.id,
        tenant_id: row.tenant_id,
        paths: JSON.stringify(monorepoPaths),
      })
      .execute();
  }
}

/** The ids of a monorepo parent's child packages. */
export async function monorepoChildIds(db: Db, tenantId: string, parentId: string) {
  const rows = await db
    .selectFrom('monorepo_children')
    .select('package_id')
    .where('tenant_id', '=', tenantId)
    .where('parent_id', '=', parentId)
    .execute();
  return rows.map((r) => r.package_id);
}

/** The names of the packages with these ids. */
export function packageNames(db: Db, tenantId: string, ids: readonly string[]) {
  return db
    .selectFrom('packages')
    .select('name')
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', [...ids])
    .execute();
}

/** Deletes the packages with these ids (their versions and grants cascade). */
export async function deletePackages(db: Db, tenantId: string, ids: readonly string[]) {
  await db
    .deleteFrom('packages')
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', [...ids])
    .execute();
}

/** Sets a version's `yanked` or `deprecated` flag. */
export async function setVersionFlag(
  db: Db,
  tenantId: string,
  versionId: string,
  flag: 'yanked' | 'deprecated',
  value: boolean,
  updatedAt: string,
) {
  await db
    .updateTable('versions')
    .set({ [flag]: value ? 1 : 0, updated_at: updatedAt })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', versionId)
    .execute();
}
