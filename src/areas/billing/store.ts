import type { Db } from '../../infra/db/connection.js';

/**
 * Writes the customer's newest-event time (`payment_event_at`, billing's column) as `at` unless a
 * newer event was read already; false then. Events of the same second pass (Stripe's `created`
 * has whole seconds).
 */
export async function notePaymentEvent(
  db: Db,
  tenantId: string,
  customerId: string,
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('customers')
    .set({ payment_event_at: at })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', customerId)
    .where((eb) => eb.or([eb('payment_event_at', 'is', null), eb('payment_event_at', '<=', at)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
