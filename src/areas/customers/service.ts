import { requireUnit, transact } from '../../unit-of-work.js';
import { assertCountLeft } from '../tenants/plan.js';
import type { Ctx, Deps } from '../../context.js';
import { nowIso } from '../../context.js';
import { conflict, invalid, notFound } from '../../errors.js';
import { newId } from '../../infra/crypto.js';
import type { Db } from '../../infra/db/connection.js';
import type { CreateCustomerInput, FreezeInput, UpdateCustomerInput } from './schema.js';
import * as store from './store.js';
import { assertTransition, setStatus } from './status.js';
import type { StatusChange } from './status.js';
export { CHANGED_MEANWHILE } from './status.js';
export type { StatusChange, StatusSource } from './status.js';
import type { CustomerRow } from './store.js';
import { isUniqueViolation } from '../../infra/db/errors.js';
import { applyExpiry, expireOverdueCustomers, isPast } from './expiry.js';
import {
  FREEZE_SUMMARY_MAX,
  clearFrozenSet,
  listFrozenVersions,
  replaceFrozenSet,
  resolveFrozenVersions,
  visibleVersions,
} from './frozen-versions.js';

/**
 * An access date as stored: UTC with `Z`, so every reader parses and compares it the same way.
 * A value the schema lets through but JavaScript cannot read (`+05` offsets, leap seconds) is a
 * 400 rather than a date that never passes.
 */
function accessDate(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) {
    throw invalid(
      'access_expires_at',
      'is not a date and time this server can read; use the form 2027-01-31T00:00:00Z',
    );
  }
  return new Date(ms).toISOString();
}

export class CustomerService {
  constructor(private readonly deps: Deps) {}

  private get db() {
    return this.deps.db;
  }

  async get(ctx: Ctx, id: string): Promise<CustomerRow> {
    await this.expireOverdue(ctx.tenantId);
    return this.getIn(this.db, ctx, id);
  }

  private async getIn(db: Db, ctx: Ctx, id: string): Promise<CustomerRow> {
    const row = await store.findCustomer(db, ctx.tenantId, id);
    if (!row) throw notFound('Customer');
    return applyExpiry(this.deps, row, db);
  }

  async getByExternalId(ctx: Ctx, externalId: string): Promise<CustomerRow> {
    await this.expireOverdue(ctx.tenantId);
    const row = await store.findCustomerByExternalId(this.db, ctx.tenantId, externalId);
    if (!row) throw notFound('Customer');
    return applyExpiry(this.deps, row);
  }

  /** Expires every overdue customer first, so the status filter and the total are right. */
  async list(ctx: Ctx, filter: { status?: string; offset: number; limit: number }) {
    await this.expireOverdue(ctx.tenantId);
    const { rows, total } = await store.listCustomers(this.db, ctx.tenantId, filter);
    const fresh = await Promise.all(rows.map((r) => applyExpiry(this.deps, r)));
    return { rows: fresh, total };
  }

  /**
   * Moves every ACTIVE or FROZEN customer of the tenant whose access_expires_at has passed to
   * EXPIRED, with an audit entry and event each; returns how many this call moved.
   */
  async expireOverdue(tenantId: string): Promise<number> {
    return expireOverdueCustomers(this.deps, tenantId);
  }

  async create(ctx: Ctx, input: CreateCustomerInput): Promise<CustomerRow> {
    const now = nowIso();
    const row: CustomerRow = {
      id: newId(),
      tenant_id: ctx.tenantId,
      name: input.name,
      email: input.email,
      external_id: input.external_id ?? null,
      status: 'ACTIVE',
      status_reason: null,
      status_source: null,
      payment_event_at: null,
      access_expires_at: accessDate(input.access_expires_at) ?? null,
      created_at: now,
      updated_at: now,
    };
    try {
      await transact(this.deps, ctx, async ({ db: trx, audit, emit }) => {
        await assertCountLeft(this.deps, trx, ctx.tenantId, 'customers');
        await store.insertCustomer(trx, row);
        emit('customer.created', { customer_id: row.id });
        await audit({
          action: 'customer.create',
          target: { type: 'customer', id: row.id },
          summary: { name: row.name, email: row.email, external_id: row.external_id },
        });
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw conflict(`A customer with external_id "${input.external_id}" already exists`);
      }
      throw err;
    }
    return applyExpiry(this.deps, row);
  }

  async update(ctx: Ctx, id: string, input: UpdateCustomerInput): Promise<CustomerRow> {
    const current = await this.get(ctx, id);
    const patch = {
      ...input,
      ...(input.access_expires_at !== undefined
        ? { access_expires_at: accessDate(input.access_expires_at) }
        : {}),
      updated_at: nowIso(),
    };
    try {
      await transact(this.deps, ctx, async ({ db: trx, audit }) => {
        await store.updateCustomer(trx, ctx.tenantId, id, patch);
        // access_expires_at decides what the customer's tokens may see.
        requireUnit(trx).accessChanged();
        await audit({
          action: 'customer.update',
          target: { type: 'customer', id },
          summary: { ...input },
        });
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw conflict(`A customer with external_id "${input.external_id}" already exists`);
      }
      throw err;
    }
    return applyExpiry(this.deps, { ...current, ...patch });
  }

  async delete(ctx: Ctx, id: string): Promise<void> {
    await transact(this.deps, ctx, async ({ db: trx, audit, emit }) => {
      if (!(await store.deleteCustomer(trx, ctx.tenantId, id))) throw notFound('Customer');
      emit('customer.deleted', { customer_id: id });
      requireUnit(trx).accessChanged();
      await audit({ action: 'customer.delete', target: { type: 'customer', id } });
    });
  }

  async suspend(ctx: Ctx, id: string, reason: string | undefined): Promise<CustomerRow> {
    const row = await this.get(ctx, id);
    assertTransition(row, 'suspend');
    return transact(this.deps, ctx, ({ db: trx }) =>
      setStatus(ctx, row, 'SUSPENDED', reason ?? null, 'suspend', trx),
    );
  }

  async reactivate(ctx: Ctx, id: string): Promise<CustomerRow> {
    const row = await this.get(ctx, id);
    assertTransition(row, 'reactivate');
    if (isPast(row.access_expires_at)) {
      throw conflict('access_expires_at is in the past; set a future date before reactivating');
    }
    return transact(this.deps, ctx, ({ db: trx }) => this.activate(trx, ctx, row, 'reactivate'));
  }

  /**
   * The payment webhook's subscription deleted / unpaid: ACTIVE or FROZEN becomes EXPIRED, marked
   * as set by payment. The frozen set is kept until the customer is reactivated (which clears it).
   * 409 CONFLICT when the customer is in any other status. Runs in `trx`, the caller's
   * transaction that already holds the customer's row.
   */
  async paymentExpire(
    trx: Db,
    ctx: Ctx,
    id: string,
    reason: string,
    details: Record<string, unknown> = {},
  ): Promise<StatusChange> {
    const row = await this.getIn(trx, ctx, id);
    assertTransition(row, 'payment_expire', (status) =>
      status === 'EXPIRED'
        ? 'Customer is already EXPIRED'
        : `Customer is ${status}; a payment only expires an ACTIVE or FROZEN customer`,
    );
    const after = await setStatus(ctx, row, 'EXPIRED', reason, 'payment_expire', trx, details);
    return { from: row.status, row: after };
  }

  /**
   * The payment webhook's invoice paid / subscription active: a customer the payment webhook
   * expired becomes ACTIVE again, its frozen set cleared as reactivate does. A customer expired by
   * its access date, suspended by an admin or in any other status is left alone (409 CONFLICT).
   * Runs in `trx`, as paymentExpire.
   */
  async paymentReactivate(
    trx: Db,
    ctx: Ctx,
    id: string,
    details: Record<string, unknown> = {},
  ): Promise<StatusChange> {
    const row = await this.getIn(trx, ctx, id);
    assertTransition(row, 'payment_reactivate', (status) =>
      status === 'ACTIVE'
        ? 'Customer is already ACTIVE'
        : `Customer is ${status}; a payment only reactivates a customer a payment expired`,
    );
    if (row.status_source !== 'payment') {
      throw conflict(
        'Customer is EXPIRED by its access date, not by a payment; an admin must reactivate it',
      );
    }
    if (isPast(row.access_expires_at)) {
      throw conflict('access_expires_at is in the past; an admin must set a future date first');
    }
    const after = await this.activate(trx, ctx, row, 'payment_reactivate', details);
    return { from: row.status, row: after };
  }

  /** Back to ACTIVE with the frozen set cleared: an admin's reactivate or a payment's. */
  private async activate(
    trx: Db,
    ctx: Ctx,
    row: CustomerRow,
    operation: 'reactivate' | 'payment_reactivate',
    details: Record<string, unknown> = {},
  ): Promise<CustomerRow> {
    await clearFrozenSet(trx, ctx.tenantId, row.id);
    return setStatus(ctx, row, 'ACTIVE', null, operation, trx, details);
  }

  /**
   * Freezes the customer at the versions listed, or, with none listed (no body, `{}`, missing or
   * empty `versions`), at every version it can see now: so later releases stay invisible. An
   * already FROZEN customer sees exactly its frozen set, so that set is kept as it is.
   */
  async freeze(ctx: Ctx, id: string, input: FreezeInput = {}): Promise<CustomerRow> {
    const row = await this.get(ctx, id);
    assertTransition(row, 'freeze');
    const listed = input.versions ?? [];
    if (listed.length === 0 && row.status === 'FROZEN') {
      const kept = await this.frozenVersions(ctx, id);
      return transact(this.deps, ctx, ({ db: trx }) =>
        setStatus(ctx, row, 'FROZEN', null, 'freeze', trx, {
          all_visible: true,
          count: kept.length,
          versions: kept.slice(0, FREEZE_SUMMARY_MAX),
        }),
      );
    }
    let frozen: { packageId: string; normalized: string }[];
    let details: Record<string, unknown>;
    if (listed.length > 0) {
      frozen = await resolveFrozenVersions(this.db, ctx.tenantId, listed);
      details = { versions: listed };
    } else {
      const visible = await visibleVersions(this.db, ctx.tenantId, id);
      frozen = visible;
      details = {
        all_visible: true,
        count: visible.length,
        versions: visible
          .slice(0, FREEZE_SUMMARY_MAX)
          .map((v) => ({ package: v.name, version: v.version })),
      };
    }
    return transact(this.deps, ctx, async ({ db: trx }) => {
      await replaceFrozenSet(trx, ctx.tenantId, id, frozen);
      return setStatus(ctx, row, 'FROZEN', null, 'freeze', trx, details);
    });
  }

  /** The frozen versions of a customer, as package name and pretty version. */
  async frozenVersions(ctx: Ctx, id: string): Promise<{ package: string; version: string }[]> {
    return listFrozenVersions(this.db, ctx.tenantId, id);
  }
}
