import type { Db } from '../../infra/db/connection.js';
import { forTenant } from '../../infra/db/tenant-scope.js';
import type { WebhookDeliveriesTable } from '../../infra/db/schema.js';

export type DeliveryRow = WebhookDeliveriesTable;

/**
 * Records a delivery and links it to the packages it matched that still exist (one deleted
 * meanwhile is simply not linked: the link is one INSERT … SELECT from packages). Two writes:
 * run it in a unit of work (transact), so both commit or neither does.
 */
export async function insertDelivery(
  db: Db,
  row: DeliveryRow,
  packageIds: string[],
): Promise<void> {
  await db.insertInto('webhook_deliveries').values(row).execute();
  if (packageIds.length === 0) return;
  // Only the tenant's packages that still exist (a package may be deleted meanwhile).
  const existing = await db
    .selectFrom('packages')
    .select('id')
    .where('tenant_id', '=', row.tenant_id)
    .where('id', 'in', [...new Set(packageIds)])
    .execute();
  if (existing.length === 0) return;
  await db
    .insertInto('webhook_delivery_packages')
    .values(
      existing.map((p) => ({ delivery_id: row.id, tenant_id: row.tenant_id, package_id: p.id })),
    )
    .execute();
}

/** Claims a delivery id once; false when it was seen before (a replay or a retry). */
export async function claimReceipt(
  db: Db,
  tenantId: string,
  provider: string,
  deliveryId: string,
  at: string,
): Promise<boolean> {
  const inserted = await forTenant(db, tenantId)
    .insertInto('webhook_receipts')
    .values({ tenant_id: tenantId, provider, delivery_id: deliveryId, received_at: at })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Forgets a receipt, so the sender's retry of a delivery we failed to handle is processed. */
export async function releaseReceipt(
  db: Db,
  tenantId: string,
  provider: string,
  deliveryId: string,
): Promise<void> {
  await forTenant(db, tenantId)
    .deleteFrom('webhook_receipts')
    .where('tenant_id', '=', tenantId)
    .where('provider', '=', provider)
    .where('delivery_id', '=', deliveryId)
    .execute();
}

/** Names of packages by id, in the tenant. */
export async function packageNames(db: Db, tenantId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await forTenant(db, tenantId)
    .selectFrom('packages')
    .select('name')
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', ids)
    .orderBy('name')
    .execute();
  return rows.map((r) => r.name);
}
