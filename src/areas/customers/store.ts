import { pageOf } from '../../infra/db/page.js';
import type { Selectable } from 'kysely';
import type { Db } from '../../infra/db/connection.js';
import { forTenant } from '../../infra/db/tenant-scope.js';
import type { CustomersTable } from '../../infra/db/schema.js';

export type CustomerRow = Selectable<CustomersTable>;

export async function findCustomer(
  db: Db,
  tenantId: string,
  id: string,
): Promise<CustomerRow | undefined> {
  return forTenant(db, tenantId)
    .selectFrom('customers')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findCustomerByExternalId(
  db: Db,
  tenantId: string,
  externalId: string,
): Promise<CustomerRow | undefined> {
  return forTenant(db, tenantId)
    .selectFrom('customers')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('external_id', '=', externalId)
    .executeTakeFirst();
}

export async function listCustomers(
  db: Db,
  tenantId: string,
  filter: { status?: string; offset: number; limit: number },
): Promise<{ rows: CustomerRow[]; total: number }> {
  let base = forTenant(db, tenantId).selectFrom('customers').where('tenant_id', '=', tenantId);
  if (filter.status) base = base.where('status', '=', filter.status);
  return pageOf(
    base,
    (qb) => qb.selectAll().orderBy('created_at', 'asc').orderBy('id', 'asc'),
    filter,
  );
}

export async function insertCustomer(db: Db, row: CustomerRow): Promise<void> {
  await forTenant(db, row.tenant_id).insertInto('customers').values(row).execute();
}

export async function updateCustomer(
  db: Db,
  tenantId: string,
  id: string,
  patch: Partial<Omit<CustomerRow, 'id' | 'tenant_id' | 'created_at'>>,
): Promise<void> {
  await forTenant(db, tenantId)
    .updateTable('customers')
    .set(patch)
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();
}

export async function deleteCustomer(db: Db, tenantId: string, id: string): Promise<boolean> {
  const result = await forTenant(db, tenantId)
    .deleteFrom('customers')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
