import { pageOf } from '../../infra/db/page.js';
import type { Selectable } from 'kysely';
import type { Db } from '../../infra/db/connection.js';
import { forTenant } from '../../infra/db/tenant-scope.js';
import type { CustomerTokensTable } from '../../infra/db/schema.js';

export type TokenRow = Selectable<CustomerTokensTable>;

export async function listTokens(
  db: Db,
  tenantId: string,
  customerId: string,
  page: { offset: number; limit: number },
): Promise<{ rows: TokenRow[]; total: number }> {
  const base = db
    .selectFrom('customer_tokens')
    .where('tenant_id', '=', tenantId)
    .where('customer_id', '=', customerId);
  return pageOf(
    base,
    (qb) => qb.selectAll().orderBy('created_at', 'asc').orderBy('id', 'asc'),
    page,
  );
}

export async function findToken(
  db: Db,
  tenantId: string,
  customerId: string,
  id: string,
): Promise<TokenRow | undefined> {
  return forTenant(db, tenantId)
    .selectFrom('customer_tokens')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('customer_id', '=', customerId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertToken(db: Db, row: TokenRow): Promise<void> {
  await db.insertInto('customer_tokens').values(row).execute();
}

export async function deleteToken(
  db: Db,
  tenantId: string,
  customerId: string,
  id: string,
): Promise<boolean> {
  const result = await forTenant(db, tenantId)
    .deleteFrom('customer_tokens')
    .where('tenant_id', '=', tenantId)
    .where('customer_id', '=', customerId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Revokes every token of a customer; returns how many there were. */
/** Deletes every token of the customer; returns the ids deleted. */
export async function deleteAllTokens(db: Db, tenantId: string, customerId: string) {
  const rows = await forTenant(db, tenantId)
    .deleteFrom('customer_tokens')
    .where('tenant_id', '=', tenantId)
    .where('customer_id', '=', customerId)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}
