import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../infra/db/connection.js';
import { DEFAULT_TENANT_ID } from '../../infra/db/schema.js';
import type { TeamTokensTable, TenantsTable } from '../../infra/db/schema.js';
import { forTenant } from '../../infra/db/tenant-scope.js';

type TenantRecord = Selectable<TenantsTable>;

/** Reads a page of the platform's tenants (not deleted, `default` aside) and their total. */
export async function listTenants(
  db: Db,
  page: { offset: number; limit: number },
): Promise<{ rows: TenantRecord[]; total: number }> {
  // The built-in `default` tenant has no host; it is not one of the platform's tenants.
  const base = db
    .selectFrom('tenants')
    .where('status', '!=', 'deleted')
    .where('id', '!=', DEFAULT_TENANT_ID);
  const { count } = await base
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('created_at')
    .orderBy('id')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
  return { rows, total: Number(count) };
}

/** Reads the tenant `tenantId` unless deleted (or `default`); undefined then. */
export async function findTenant(db: Db, tenantId: string): Promise<TenantRecord | undefined> {
  return db
    .selectFrom('tenants')
    .selectAll()
    .where('id', '=', tenantId)
    .where('id', '!=', DEFAULT_TENANT_ID)
    .where('status', '!=', 'deleted')
    .executeTakeFirst();
}

/** Writes a new tenant row. */
export async function insertTenant(db: Db, tenant: Insertable<TenantsTable>): Promise<void> {
  await db.insertInto('tenants').values(tenant).execute();
}

/** Writes a team token of the new tenant `tenantId` (its owner token). */
export async function insertTenantTeamToken(
  db: Db,
  tenantId: string,
  token: Insertable<TeamTokensTable>,
): Promise<void> {
  await forTenant(db, tenantId).insertInto('team_tokens').values(token).execute();
}

/** Writes the tenant row's name, plan, status and updated_at. */
export async function updateTenant(
  db: Db,
  tenantId: string,
  set: Pick<Updateable<TenantsTable>, 'name' | 'plan' | 'status' | 'updated_at'>,
): Promise<void> {
  await db.updateTable('tenants').set(set).where('id', '=', tenantId).execute();
}

/** Writes the tenant's status as deleted (its hosts stop resolving; the row stays until removal). */
export async function markTenantDeleted(db: Db, tenantId: string, at: string): Promise<void> {
  await db
    .updateTable('tenants')
    .set({ status: 'deleted', updated_at: at })
    .where('id', '=', tenantId)
    .execute();
}

/** Deletes the tenant row itself (its subdomain is free again). */
export async function deleteTenantRow(db: Db, tenantId: string): Promise<void> {
  await db.deleteFrom('tenants').where('id', '=', tenantId).execute();
}

/** Deletes every row of the tenant in one tenant table; the number of rows deleted. */
export async function deleteTenantRowsOf(db: Db, tenantId: string, table: string): Promise<number> {
  const result = await forTenant(db, tenantId)
    .deleteFrom(table as 'customers')
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
