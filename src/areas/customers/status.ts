import { requireUnit } from '../../unit-of-work.js';
import type { Ctx } from '../../context.js';
import { nowIso } from '../../context.js';
import { conflict } from '../../errors.js';
import type { Db } from '../../infra/db/connection.js';
import type { CustomerStatus } from './schema.js';
import type { CustomerRow } from './store.js';

/** Statuses a transition may start from (docs/api.md). */
const TRANSITIONS = {
  suspend: ['ACTIVE', 'FROZEN', 'EXPIRED'],
  freeze: ['ACTIVE', 'FROZEN'],
  reactivate: ['SUSPENDED', 'FROZEN', 'EXPIRED'],
  /** The payment webhook: subscription deleted or unpaid. */
  payment_expire: ['ACTIVE', 'FROZEN'],
  /** The payment webhook: invoice paid or subscription active, only after payment_expire. */
  payment_reactivate: ['EXPIRED'],
} as const satisfies Record<string, readonly CustomerStatus[]>;

/**
 * Who set the current status: null for an admin or the access date, `payment` for the payment
 * webhook. Only a payment may undo what a payment did.
 */
export type StatusSource = 'payment' | null;

const STATUS_SOURCE: Partial<Record<keyof typeof TRANSITIONS, StatusSource>> = {
  payment_expire: 'payment',
  payment_reactivate: 'payment',
};

/** The 409 of a transition that lost a race; worth retrying, unlike other conflicts. */
export const CHANGED_MEANWHILE = 'The customer changed meanwhile; try again';

/** A status a payment moved: where it was and the customer now. */
export interface StatusChange {
  from: string;
  row: CustomerRow;
}

/** 409 CONFLICT unless `row`'s status may start transition `op`. */
export function assertTransition(
  row: CustomerRow,
  op: keyof typeof TRANSITIONS,
  message: (status: string) => string = (status) =>
    `Cannot ${op} a customer whose status is ${status}`,
): void {
  const allowed: readonly string[] = TRANSITIONS[op];
  if (!allowed.includes(row.status)) throw conflict(message(row.status));
}

/**
 * Moves the customer to `status` inside the unit of work `db` belongs to, from the status the
 * transition was checked against only; audits it, and declares the access change and event.
 */
export async function setStatus(
  ctx: Ctx,
  row: CustomerRow,
  status: CustomerStatus,
  reason: string | null,
  operation: keyof typeof TRANSITIONS,
  db: Db,
  details: Record<string, unknown> = {},
): Promise<CustomerRow> {
  const updated_at = nowIso();
  const source = STATUS_SOURCE[operation] ?? null;
  // Only from the status this transition was checked against: a concurrent change (another
  // delivery, an admin) makes this one a 409 instead of silently overwriting it.
  const result = await db
    .updateTable('customers')
    .set({ status, status_reason: reason, status_source: source, updated_at })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', row.id)
    .where('status', '=', row.status)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) {
    throw conflict(CHANGED_MEANWHILE);
  }
  const tx = requireUnit(db);
  await tx.audit({
    action: `customer.${operation}`,
    target: { type: 'customer', id: row.id },
    summary: { from: row.status, to: status, reason, ...details },
  });
  tx.accessChanged();
  tx.emit('customer.status_changed', { customer_id: row.id, from: row.status, to: status });
  tx.publish({
    type: 'customer.activity',
    tenantId: ctx.tenantId,
    customerId: row.id,
    activity: 'STATUS_CHANGED',
    package: null,
    version: null,
    at: updated_at,
  });
  return { ...row, status, status_reason: reason, status_source: source, updated_at };
}
