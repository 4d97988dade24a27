import type { Db } from '../../infra/db/connection.js';
import { forTenant } from '../../infra/db/tenant-scope.js';

/** Which downloads a statistic counts: one tenant, a day range (inclusive), optional narrowing. */
export interface DownloadFilter {
  tenantId: string;
  from: string;
  to: string;
  customerId?: string;
  packageId?: string;
  normalized?: string;
}

function scoped(db: Db, f: DownloadFilter) {
  let q = db
    .selectFrom('downloads as d')
    .where('d.tenant_id', '=', f.tenantId)
    .where('d.day', '>=', f.from)
    .where('d.day', '<=', f.to);
  if (f.customerId !== undefined) q = q.where('d.customer_id', '=', f.customerId);
  if (f.packageId !== undefined) q = q.where('d.package_id', '=', f.packageId);
  if (f.normalized !== undefined) q = q.where('d.version_normalized', '=', f.normalized);
  return q;
}

/** Downloads per day, only days that have some. */
export async function downloadsByDay(db: Db, f: DownloadFilter) {
  const rows = await scoped(db, f)
    .select(['d.day', (eb) => eb.fn.sum<number>('d.count').as('n')])
    .groupBy('d.day')
    .execute();
  return rows.map((r) => ({ day: r.day, downloads: Number(r.n) }));
}

export async function downloadsByPackage(db: Db, f: DownloadFilter) {
  const rows = await scoped(db, f)
    .innerJoin('packages as p', 'p.id', 'd.package_id')
    .select(['p.name', (eb) => eb.fn.sum<number>('d.count').as('n')])
    .groupBy('p.name')
    .execute();
  return rows.map((r) => ({ name: r.name, downloads: Number(r.n) }));
}

export async function downloadsByCustomer(db: Db, f: DownloadFilter) {
  const rows = await scoped(db, f)
    .leftJoin('customers as c', 'c.id', 'd.customer_id')
    .select(['d.customer_id', 'c.name', (eb) => eb.fn.sum<number>('d.count').as('n')])
    .groupBy(['d.customer_id', 'c.name'])
    .execute();
  return rows.map((r) => ({ customer_id: r.customer_id, name: r.name, downloads: Number(r.n) }));
}

/** Downloads per normalized version of f.packageId, with the pretty version when it still exists. */
export async function downloadsByVersion(db: Db, f: DownloadFilter & { packageId: string }) {
  const rows = await scoped(db, f)
    .leftJoin('versions as v', (j) =>
      j
        .onRef('v.package_id', '=', 'd.package_id')
        .onRef('v.version_normalized', '=', 'd.version_normalized'),
    )
    .select(['d.version_normalized', 'v.version', (eb) => eb.fn.sum<number>('d.count').as('n')])
    .groupBy(['d.version_normalized', 'v.version'])
    .execute();
  return rows.map((r) => ({
    version: r.version ?? r.version_normalized,
    downloads: Number(r.n),
  }));
}

/** How many packages, customers and versions the tenant has (the catalogue, not the range). */
export async function catalogueCounts(db: Db, tenantId: string) {
  const count = (table: 'packages' | 'customers' | 'versions') =>
    db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('tenant_id', '=', tenantId)
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  const [packages, customers, versions] = await Promise.all([
    count('packages'),
    count('customers'),
    count('versions'),
  ]);
  return { packages, customers, versions };
}

export async function findPackage(db: Db, tenantId: string, name: string) {
  return forTenant(db, tenantId)
    .selectFrom('packages')
    .select(['id', 'name'])
    .where('tenant_id', '=', tenantId)
    .where('name', '=', name)
    .executeTakeFirst();
}

export async function findVersion(db: Db, tenantId: string, packageId: string, normalized: string) {
  return forTenant(db, tenantId)
    .selectFrom('versions')
    .select(['version', 'version_normalized'])
    .where('tenant_id', '=', tenantId)
    .where('package_id', '=', packageId)
    .where('version_normalized', '=', normalized)
    .executeTakeFirst();
}

export { customerExists } from '../access/lookups.js';
