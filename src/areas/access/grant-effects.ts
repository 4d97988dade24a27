import type { Ctx } from '../../context.js';
import { nowIso } from '../../context.js';
import { notFound } from '../../errors.js';
import type { Db } from '../../infra/db/connection.js';
import type { Tx } from '../../unit-of-work.js';
import { requireUnit } from '../../unit-of-work.js';
import { customerExists } from './lookups.js';

export type Activity = 'ACCESS_GRANTED' | 'ACCESS_REVOKED';

/** An audit entry about one customer's access, in the unit of work `db` belongs to. */
export function auditCustomer(
  db: Db,
  action: string,
  customerId: string,
  summary: Record<string, unknown>,
): Promise<void> {
  return requireUnit(db).audit({ action, target: { type: 'customer', id: customerId }, summary });
}

export async function requireCustomer(db: Db, ctx: Ctx, customerId: string): Promise<void> {
  if (!(await customerExists(db, ctx.tenantId, customerId))) throw notFound('Customer');
}

/** A package whose grant changed, with the constraint granted or revoked when known. */
export type GrantChange = string | { name: string; constraint: string | null };

/**
 * What the customer may see changed: the stamp moves, the outbox gets `access.granted` /
 * `access.revoked` per package in the transaction, and the bus one event per package after commit.
 */
export function accessChangedFor(
  tx: Tx,
  customerId: string,
  activity: Activity,
  changes: readonly GrantChange[],
): void {
  tx.accessChanged();
  const at = nowIso();
  const type = activity === 'ACCESS_GRANTED' ? 'access.granted' : 'access.revoked';
  for (const change of changes) {
    const { name, constraint } =
      typeof change === 'string' ? { name: change, constraint: null } : change;
    tx.emit(type, { customer_id: customerId, package: name, constraint });
    tx.publish({
      type: 'customer.activity',
      tenantId: tx.ctx.tenantId,
      customerId,
      activity,
      package: name,
      version: null,
      at,
    });
  }
}
