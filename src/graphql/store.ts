import { sql } from 'kysely';
import type { Db } from '../infra/db/connection.js';
import type { AccessRow } from '../areas/access/store.js';
import type { PackageRow, VersionRow } from '../areas/packages/store.js';

/**
 * Batched lookups for the GraphQL loaders: one query per batch, whatever its size. The single-row
 * forms live in the areas' stores; these answer the same questions for many keys at once.
 */

const noCollection = sql<string | null>`NULL`;

/** The access lists (direct and through collections) of many customers, in two queries. */
export async function accessOfCustomers(
  db: Db,
  tenantId: string,
  customerIds: readonly string[],
): Promise<Map<string, AccessRow[]>> {
  const out = new Map<string, AccessRow[]>(customerIds.map((id) => [id, []]));
  if (customerIds.length === 0) return out;
  const ids = [...new Set(customerIds)];
  const direct = db
    .selectFrom('grants as g')
    .innerJoin('packages as p', 'p.id', 'g.package_id')
    .select([
      'g.customer_id as customer_id',
      'p.name as package',
      'g.constraint as constraint',
      'g.granted_at as granted_at',
      noCollection.as('via_collection'),
    ])
    .where('g.tenant_id', '=', tenantId)
    .where('g.customer_id', 'in', ids);
  const via = db
    .selectFrom('collection_grants as cg')
    .innerJoin('collections as c', 'c.id', 'cg.collection_id')
    .innerJoin('collection_packages as cp', 'cp.collection_id', 'cg.collection_id')
    .innerJoin('packages as p', 'p.id', 'cp.package_id')
    .select((eb) => [
      'cg.customer_id as customer_id',
      'p.name as package',
      'cg.constraint as constraint',
      eb
        .case()
        .when('cp.added_at', '>', eb.ref('cg.granted_at'))
        .then(eb.ref('cp.added_at'))
        .else(eb.ref('cg.granted_at'))
        .end()
        .$castTo<string>()
        .as('granted_at'),
      eb.ref('c.slug').$castTo<string | null>().as('via_collection'),
    ])
    .where('cg.tenant_id', '=', tenantId)
    .where('cg.customer_id', 'in', ids);
  const rows = await db
    .selectFrom(direct.unionAll(via).as('a'))
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
