import type { Selectable, Updateable } from 'kysely';
import type { Db } from '../../infra/db/connection.js';
import { pageOf } from '../../infra/db/page.js';
import type { PageWindow } from '../../infra/db/page.js';
import type { WebhookEndpointsTable, WebhookEventDeliveriesTable } from '../../infra/db/schema.js';
import { forTenant } from '../../infra/db/tenant-scope.js';

export type EndpointRow = Selectable<WebhookEndpointsTable>;
export type DeliveryRow = Selectable<WebhookEventDeliveriesTable>;

export function findEndpoint(db: Db, tenantId: string, id: string) {
  return forTenant(db, tenantId)
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function listEndpoints(db: Db, tenantId: string, window: PageWindow) {
  const base = forTenant(db, tenantId)
    .selectFrom('webhook_endpoints')
    .where('tenant_id', '=', tenantId);
  return pageOf(base, (qb) => qb.selectAll().orderBy('created_at', 'asc').orderBy('id'), window);
}

export async function insertEndpoint(db: Db, row: EndpointRow): Promise<void> {
  await db.insertInto('webhook_endpoints').values(row).execute();
}

export async function updateEndpoint(
  db: Db,
  tenantId: string,
  id: string,
  patch: Updateable<WebhookEndpointsTable>,
): Promise<void> {
  await forTenant(db, tenantId)
    .updateTable('webhook_endpoints')
    .set(patch)
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();
}

/** Deletes the endpoint and its deliveries; false when there was none. Run it in a unit. */
export async function deleteEndpoint(db: Db, tenantId: string, id: string): Promise<boolean> {
  const scoped = forTenant(db, tenantId);
  await scoped
    .deleteFrom('webhook_event_deliveries')
    .where('tenant_id', '=', tenantId)
    .where('endpoint_id', '=', id)
    .execute();
  const result = await scoped
    .deleteFrom('webhook_endpoints')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Newest first. */
export function listDeliveries(db: Db, tenantId: string, endpointId: string, window: PageWindow) {
  const base = forTenant(db, tenantId)
    .selectFrom('webhook_event_deliveries')
    .where('tenant_id', '=', tenantId)
    .where('endpoint_id', '=', endpointId);
  return pageOf(
    base,
    (qb) => qb.selectAll().orderBy('created_at', 'desc').orderBy('event_id', 'desc'),
    window,
  );
}

export function findDelivery(db: Db, tenantId: string, endpointId: string, id: string) {
  return forTenant(db, tenantId)
    .selectFrom('webhook_event_deliveries')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('endpoint_id', '=', endpointId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertDelivery(db: Db, row: DeliveryRow): Promise<void> {
  await db.insertInto('webhook_event_deliveries').values(row).execute();
}

/**
 * The first pending delivery of a chain, in event order: the only one of the chain that may be
 * sent (a later one waits for it, retries included).
 */
export function chainHead(db: Db, tenantId: string, endpointId: string, chain: string) {
  return forTenant(db, tenantId)
    .selectFrom('webhook_event_deliveries')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('endpoint_id', '=', endpointId)
    .where('chain', '=', chain)
    .where('status', '=', 'pending')
    .orderBy('event_id', 'asc')
    .orderBy('created_at', 'asc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Takes attempt `attempts + 1` of a delivery before it is sent: only the one caller whose
 * update matches the attempt count it read gets it, so no attempt is ever sent twice. The next
 * attempt's time is set now, as if it failed: a worker that dies mid-send leaves the delivery
 * to be retried then, as a new attempt.
 */
export async function takeAttempt(
  db: Db,
  row: DeliveryRow,
  now: string,
  retryAt: string,
): Promise<boolean> {
  const result = await forTenant(db, row.tenant_id)
    .updateTable('webhook_event_deliveries')
    .set({ attempts: row.attempts + 1, last_attempt_at: now, next_attempt_at: retryAt })
    .where('tenant_id', '=', row.tenant_id)
    .where('id', '=', row.id)
    .where('status', '=', 'pending')
    .where('attempts', '=', row.attempts)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The outcome of the attempt taken with `takeAttempt` (attempt number `attempt`). */
export async function recordAttempt(
  db: Db,
  row: DeliveryRow,
  attempt: number,
  outcome: Updateable<WebhookEventDeliveriesTable>,
): Promise<void> {
  await forTenant(db, row.tenant_id)
    .updateTable('webhook_event_deliveries')
    .set(outcome)
    .where('tenant_id', '=', row.tenant_id)
    .where('id', '=', row.id)
    .where('attempts', '=', attempt)
    .execute();
}

/**
 * Makes a delivery pending again with room for one more attempt (a redelivery), unless an
 * attempt was taken since it was read; false then.
 */
export async function reopenDelivery(
  db: Db,
  row: DeliveryRow,
  changes: { status: string; max_attempts: number; next_attempt_at: string },
): Promise<boolean> {
  const result = await forTenant(db, row.tenant_id)
    .updateTable('webhook_event_deliveries')
    .set(changes)
    .where('tenant_id', '=', row.tenant_id)
    .where('id', '=', row.id)
    .where('attempts', '=', row.attempts)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The chains of an endpoint that have pending deliveries. */
export function pendingChains(db: Db, tenantId: string, endpointId: string) {
  return forTenant(db, tenantId)
    .selectFrom('webhook_event_deliveries')
    .select('chain')
    .distinct()
    .where('tenant_id', '=', tenantId)
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .execute();
}

/** Deletes the tenant's deliveries created before `before`; returns how many. */
export async function deleteDeliveriesBefore(db: Db, tenantId: string, before: string) {
  const result = await forTenant(db, tenantId)
    .deleteFrom('webhook_event_deliveries')
    .where('tenant_id', '=', tenantId)
    .where('created_at', '<', before)
    .where('status', '!=', 'pending')
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
