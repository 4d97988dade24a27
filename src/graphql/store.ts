import { sql } from 'kysely';
import type { Db } from '../infra/db/connection.js';
import { accessUnion } from '../areas/access/store.js';
import type { AccessRow } from '../areas/access/store.js';
import type { PackageRow, VersionRow } from '../areas/packages/store.js';

/**
 * Batched lookups for the GraphQL loaders: one query per batch, whatever its size. The single-row
 * forms live in the areas' stores; these answer the same questions for many keys at once.
 */

/** The access lists (direct and through collections) of many customers, in two queries. */
export async function accessOfCustomers(
  db: Db,
  tenantId: string,
  customerIds: readonly string[],
): Promise<Map<string, AccessRow[]>> {
  const out = new Map<string, AccessRow[]>(customerIds.map((id) => [id, []]));
  if (customerIds.length === 0) return out;
  const ids = [...new Set(customerIds)];
  const rows = await db
    .selectFrom(accessUnion(db, tenantId, { customerIds: ids }).as('a'))
    .select(['a.customer_id', 'a.package', 'a.constraint', 'a.granted_at', 'a.via_collection'])
    .orderBy('a.customer_id')
    .orderBy('a.package')
    .orderBy(sql`coalesce(a.via_collection, '')`)
    .execute();
  for (const { customer_id, ...row } of rows) out.get(customer_id)?.push(row);
  return out;
}

/** Packages by lower-case name, in one query. */
export async function packagesByName(
  db: Db,
  tenantId: string,
  names: readonly string[],
): Promise<Map<string, PackageRow>> {
  if (names.length === 0) return new Map();
  const rows = await db
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
  packageIds: readonly string[],
): Promise<Map<string, { row: VersionRow; downloads: number }[]>> {
  const out = new Map<string, { row: VersionRow; downloads: number }[]>(
    packageIds.map((id) => [id, []]),
  );
  if (packageIds.length === 0) return out;
  const ids = [...new Set(packageIds)];
  const [versions, downloads] = await Promise.all([
    db.selectFrom('versions').selectAll().where('package_id', 'in', ids).execute(),
    db
      .selectFrom('downloads')
      .select(['package_id', 'version_normalized', (eb) => eb.fn.sum<number>('count').as('n')])
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
