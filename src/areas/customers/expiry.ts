import type { Ctx, Deps } from '../../context.js';
import { nowIso } from '../../context.js';
import type { Db } from '../../infra/db/connection.js';
import { transact } from '../../unit-of-work.js';
import type { Tx } from '../../unit-of-work.js';
import * as store from './store.js';
import type { CustomerRow } from './store.js';

export function isPast(iso: string | null): boolean {
  return iso !== null && Date.parse(iso) <= Date.now();
}

/** What expiring a customer needs besides the database: the event bus and cache generation. */
export type ExpiryDeps = Pick<Deps, 'db' | 'events' | 'generations' | 'log'>;

const EXPIRY_REASON = 'access expired';
const EXPIRABLE = ['ACTIVE', 'FROZEN'] as const;
/** Stored dates may carry any UTC offset; a string compare against now plus this finds them all. */
const OVERDUE_HORIZON_MS = 2 * 86_400_000;

type ExpiryCandidate = Pick<CustomerRow, 'id' | 'tenant_id' | 'status' | 'access_expires_at'>;

export function isOverdue(row: ExpiryCandidate): boolean {
  return (row.status === 'ACTIVE' || row.status === 'FROZEN') && isPast(row.access_expires_at);
}

/**
 * Moves overdue customers of one tenant to EXPIRED (docs/api.md: by the access date, actor
 * `system`). Each row changes only from the status and date it was read with, so when requests
 * race only the one whose UPDATE changed the row writes the audit entry and sends the
 * STATUS_CHANGED event: exactly once per customer. One unit of work (unit-of-work.ts), joining
 * the caller's when `db` is one's transaction: the events and the access-change stamp follow
 * its commit, never a rolled-back expiry. Returns the ids it moved and when.
 */
async function expireCustomers(
  db: Db,
  deps: ExpiryDeps,
  tenantId: string,
  rows: ExpiryCandidate[],
): Promise<Map<string, string>> {
  const moved = new Map<string, string>();
  if (rows.length === 0) return moved;
  const updated_at = nowIso();
  const ctx: Ctx = { tenantId, actor: { kind: 'system', id: null } };
  const run = async (tx: Tx) => {
    // In id order, so two sweeps lock rows in the same order (PostgreSQL) and never deadlock.
    for (const row of [...rows].sort((a, b) => (a.id < b.id ? -1 : 1))) {
      const changed = await tx.db
        .updateTable('customers')
        .set({ status: 'EXPIRED', status_reason: EXPIRY_REASON, status_source: null, updated_at })
        .where('tenant_id', '=', tenantId)
        .where('id', '=', row.id)
        .where('status', '=', row.status)
        .where('access_expires_at', '=', row.access_expires_at)
        .returning('id')
        .executeTakeFirst();
      if (!changed) continue;
      moved.set(row.id, updated_at);
      await tx.audit({
        action: 'customer.expire',
        target: { type: 'customer', id: row.id },
        summary: {
          from: row.status,
          to: 'EXPIRED',
          reason: EXPIRY_REASON,
          access_expires_at: row.access_expires_at,
        },
      });
      tx.accessChanged();
      tx.emit('customer.status_changed', { customer_id: row.id, from: row.status, to: 'EXPIRED' });
      tx.publish({
        type: 'customer.activity',
        tenantId,
        customerId: row.id,
        activity: 'STATUS_CHANGED',
        package: null,
        version: null,
        at: updated_at,
      });
    }
  };
  await transact(deps, ctx, run, { within: db.isTransaction ? db : undefined });
  return moved;
}

/** One customer through expireCustomers; answers the row as it is afterwards. */
async function expireOne(db: Db, deps: ExpiryDeps, row: CustomerRow): Promise<CustomerRow> {
  let current = row;
  // A lost race re-reads the row: usually another request expired it; if it changed otherwise
  // and is still overdue, try again (bounded, as every retry follows someone else's write).
  for (let attempt = 0; attempt < 3 && isOverdue(current); attempt++) {
    const moved = await expireCustomers(db, deps, current.tenant_id, [current]);
    const updated_at = moved.get(current.id);
    if (updated_at) {
      return {
        ...current,
        status: 'EXPIRED',
        status_reason: EXPIRY_REASON,
        status_source: null,
        updated_at,
      };
    }
    const fresh = await store.findCustomer(db, current.tenant_id, current.id);
    if (!fresh) return { ...current, status: 'EXPIRED', status_reason: EXPIRY_REASON };
    current = fresh;
  }
  return current;
}

/**
 * Moves a customer whose access date has passed to EXPIRED. Called wherever a customer is read,
 * so expiry takes effect on the very next request, with no scheduler lag. Records the audit entry
 * and event (once, whoever wins a race) and moves the access-change stamp. `db` may be the
 * transaction of the caller's unit of work.
 */
export async function applyExpiry(
  deps: ExpiryDeps,
  row: CustomerRow,
  db: Db = deps.db,
): Promise<CustomerRow> {
  return isOverdue(row) ? expireOne(db, deps, row) : row;
}

/**
 * Moves every ACTIVE or FROZEN customer of the tenant whose access_expires_at has passed to
 * EXPIRED, with an audit entry and event each; returns how many this call moved.
 */
export async function expireOverdueCustomers(deps: ExpiryDeps, tenantId: string): Promise<number> {
  const horizon = new Date(Date.now() + OVERDUE_HORIZON_MS).toISOString();
  const candidates = await deps.db
    .selectFrom('customers')
    .select(['id', 'tenant_id', 'status', 'access_expires_at'])
    .where('tenant_id', '=', tenantId)
    .where('status', 'in', EXPIRABLE)
    .where('access_expires_at', 'is not', null)
    .where('access_expires_at', '<=', horizon)
    .execute();
  const moved = await expireCustomers(deps.db, deps, tenantId, candidates.filter(isOverdue));
  return moved.size;
}
