import { pageOf } from '../../infra/db/page.js';
import type { PageWindow } from '../../infra/db/page.js';
import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import type { Db } from '../../infra/db/connection.js';
import type { CustomersTable, GrantsTable } from '../../infra/db/schema.js';
import { accessUnion } from '../../composer/visibility.js';

export type GrantRow = Selectable<GrantsTable>;

/** One line of a customer's access list: a direct grant or a package reached by a collection. */
export interface AccessRow {
  package: string;
  constraint: string;
  granted_at: string;
  via_collection: string | null;
}

export type PackageCustomerRow = Selectable<CustomersTable> & {
  constraint: string;
  granted_at: string;
  via_collection: string | null;
};

/** One page of a customer's access, sorted by package, the direct grant first, then by slug. */
export async function listCustomerAccess(
  db: Db,
  tenantId: string,
  customerId: string,
  page: PageWindow,
): Promise<{ rows: AccessRow[]; total: number }> {
  const base = db.selectFrom(accessUnion(db, tenantId, { customerId }).as('a'));
  return pageOf(
    base,
    (qb) =>
      qb
        .select(['a.package', 'a.constraint', 'a.granted_at', 'a.via_collection'])
        .orderBy('a.package')
        .orderBy(sql`coalesce(a.via_collection, '')`),
    page,
  );
}

/** Reverse lookup: the customers that can reach a package, directly or through collections. */
export async function listPackageCustomers(
  db: Db,
  tenantId: string,
  packageId: string,
  page: { offset: number; limit: number },
): Promise<{ rows: PackageCustomerRow[]; total: number }> {
  const base = db
    .selectFrom(accessUnion(db, tenantId, { packageId }).as('a'))
    .innerJoin('customers as c', 'c.id', 'a.customer_id')
    .where('c.tenant_id', '=', tenantId);
  return pageOf(
    base,
    (qb) =>
      qb
        .selectAll('c')
        .select(['a.constraint', 'a.granted_at', 'a.via_collection'])
        .orderBy('c.name')
        .orderBy('c.id')
        .orderBy(sql`coalesce(a.via_collection, '')`),
    page,
  );
}

/** A customer's direct grants with their package names. */
export async function directGrants(db: Db, tenantId: string, customerId: string) {
  return db
    .selectFrom('grants as g')
    .innerJoin('packages as p', 'p.id', 'g.package_id')
    .selectAll('g')
    .select('p.name')
    .where('g.tenant_id', '=', tenantId)
    .where('g.customer_id', '=', customerId)
    .execute();
}

export async function findGrant(db: Db, tenantId: string, customerId: string, packageId: string) {
  return db
    .selectFrom('grants')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('customer_id', '=', customerId)
    .where('package_id', '=', packageId)
    .executeTakeFirst();
}

/** Inserts a new grant; an existing one for the customer and package is a unique violation. */
export async function insertGrant(db: Db, row: GrantRow): Promise<void> {
  await db.insertInto('grants').values(row).execute();
}

/** Inserts a grant, or updates the constraint and granted_at of an existing one. */
export async function upsertGrant(db: Db, row: GrantRow): Promise<void> {
  await db
    .insertInto('grants')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['customer_id', 'package_id'])
        .doUpdateSet({ constraint: row.constraint, granted_at: row.granted_at }),
    )
    .execute();
}

export async function deleteGrants(
  db: Db,
  tenantId: string,
  customerId: string,
  packageIds: string[],
): Promise<number> {
  if (packageIds.length === 0) return 0;
  const result = await db
    .deleteFrom('grants')
    .where('tenant_id', '=', tenantId)
    .where('customer_id', '=', customerId)
    .where('package_id', 'in', packageIds)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The access lists (direct and through collections) of many customers, for batched reads. */
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
