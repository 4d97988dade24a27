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

/** What the customer may see changed: the stamp moves and one event per package, after commit. */
export function accessChangedFor(
  tx: Tx,
  customerId: string,
  activity: Activity,
  names: string[],
): void {
  tx.accessChanged();
  const at = nowIso();
  for (const name of names) {
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
