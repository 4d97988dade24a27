import type { Ctx, Deps } from '../../context.js';
import { nowIso } from '../../context.js';
import { conflict, invalid, notFound } from '../../errors.js';
import { newId } from '../../infra/crypto.js';
import type { Db } from '../../infra/db/connection.js';
import { normalizeVersion } from '../../composer/semver/index.js';
import type {
  CreateCustomerInput,
  CustomerStatus,
  FreezeInput,
  UpdateCustomerInput,
} from './schema.js';
import * as store from './store.js';
import { recordAudit } from '../audit/record.js';
import type { CustomerRow } from './store.js';

/** Statuses a transition may start from (decisions.md section 5). */
const TRANSITIONS = {
  suspend: ['ACTIVE', 'FROZEN', 'EXPIRED'],
  freeze: ['ACTIVE', 'FROZEN'],
  reactivate: ['SUSPENDED', 'FROZEN', 'EXPIRED'],
} as const satisfies Record<string, readonly CustomerStatus[]>;

function isPast(iso: string | null): boolean {
  return iso !== null && Date.parse(iso) <= Date.now();
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e.code === '23505' || /UNIQUE constraint failed/.test(e.message ?? '');
}

/**
 * Moves a customer whose access date has passed to EXPIRED. Called wherever a customer is read,
 * so expiry takes effect on the very next request, with no scheduler lag.
 */
export async function applyExpiry(db: Db, row: CustomerRow): Promise<CustomerRow> {
  if ((row.status === 'ACTIVE' || row.status === 'FROZEN') && isPast(row.access_expires_at)) {
    const updated_at = nowIso();
    await db
      .updateTable('customers')
      .set({ status: 'EXPIRED', status_reason: 'access expired', updated_at })
      .where('id', '=', row.id)
      .where('status', '=', row.status)
      .execute();
    return { ...row, status: 'EXPIRED', status_reason: 'access expired', updated_at };
  }
  return row;
}

export class CustomerService {
  constructor(private readonly deps: Deps) {}

  private get db() {
    return this.deps.db;
  }

  async get(ctx: Ctx, id: string): Promise<CustomerRow> {
    const row = await store.findCustomer(this.db, ctx.tenantId, id);
    if (!row) throw notFound('Customer');
    return applyExpiry(this.db, row);
  }

  async getByExternalId(ctx: Ctx, externalId: string): Promise<CustomerRow> {
    const row = await store.findCustomerByExternalId(this.db, ctx.tenantId, externalId);
    if (!row) throw notFound('Customer');
    return applyExpiry(this.db, row);
  }

  async list(ctx: Ctx, filter: { status?: string; offset: number; limit: number }) {
    const { rows, total } = await store.listCustomers(this.db, ctx.tenantId, filter);
    const fresh = await Promise.all(rows.map((r) => applyExpiry(this.db, r)));
    return { rows: fresh, total };
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
      access_expires_at: input.access_expires_at ?? null,
      created_at: now,
      updated_at: now,
    };
    try {
      await this.db.transaction().execute(async (trx) => {
        await store.insertCustomer(trx, row);
        await recordAudit(trx, ctx, {
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
    return applyExpiry(this.db, row);
  }

  async update(ctx: Ctx, id: string, input: UpdateCustomerInput): Promise<CustomerRow> {
    const current = await this.get(ctx, id);
    const patch = { ...input, updated_at: nowIso() };
    try {
      await this.db.transaction().execute(async (trx) => {
        await store.updateCustomer(trx, ctx.tenantId, id, patch);
        await recordAudit(trx, ctx, {
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
    return applyExpiry(this.db, { ...current, ...patch });
  }

  async delete(ctx: Ctx, id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (!(await store.deleteCustomer(trx, ctx.tenantId, id))) throw notFound('Customer');
      await recordAudit(trx, ctx, { action: 'customer.delete', target: { type: 'customer', id } });
    });
  }

  async suspend(ctx: Ctx, id: string, reason: string | undefined): Promise<CustomerRow> {
    const row = await this.get(ctx, id);
    this.assertTransition(row, 'suspend');
    return this.db
      .transaction()
      .execute((trx) => this.setStatus(ctx, row, 'SUSPENDED', reason ?? null, 'suspend', trx));
  }

  async reactivate(ctx: Ctx, id: string): Promise<CustomerRow> {
    const row = await this.get(ctx, id);
    this.assertTransition(row, 'reactivate');
    if (isPast(row.access_expires_at)) {
      throw conflict('access_expires_at is in the past; set a future date before reactivating');
    }
    return this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('frozen_versions')
        .where('tenant_id', '=', ctx.tenantId)
        .where('customer_id', '=', id)
        .execute();
      return this.setStatus(ctx, row, 'ACTIVE', null, 'reactivate', trx);
    });
  }

  async freeze(ctx: Ctx, id: string, input: FreezeInput): Promise<CustomerRow> {
    const row = await this.get(ctx, id);
    this.assertTransition(row, 'freeze');
    const frozen = await this.resolveFrozenVersions(ctx, input);
    return this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('frozen_versions')
        .where('tenant_id', '=', ctx.tenantId)
        .where('customer_id', '=', id)
        .execute();
      await trx
        .insertInto('frozen_versions')
        .values(
          frozen.map((f) => ({
            tenant_id: ctx.tenantId,
            customer_id: id,
            package_id: f.packageId,
            version_normalized: f.normalized,
          })),
        )
        .execute();
      return this.setStatus(ctx, row, 'FROZEN', null, 'freeze', trx, {
        versions: input.versions,
      });
    });
  }

  /** The frozen versions of a customer, as package name and pretty version. */
  async frozenVersions(ctx: Ctx, id: string): Promise<{ package: string; version: string }[]> {
    const rows = await this.db
      .selectFrom('frozen_versions as f')
      .innerJoin('packages as p', 'p.id', 'f.package_id')
      .leftJoin('versions as v', (j) =>
        j
          .onRef('v.package_id', '=', 'f.package_id')
          .onRef('v.version_normalized', '=', 'f.version_normalized'),
      )
      .select(['p.name', 'f.version_normalized', 'v.version'])
      .where('f.tenant_id', '=', ctx.tenantId)
      .where('f.customer_id', '=', id)
      .orderBy('p.name')
      .execute();
    return rows.map((r) => ({ package: r.name, version: r.version ?? r.version_normalized }));
  }

  private async resolveFrozenVersions(ctx: Ctx, input: FreezeInput) {
    const out = new Map<string, { packageId: string; normalized: string }>();
    for (const [i, item] of input.versions.entries()) {
      const field = `versions.${i}`;
      const pkg = await this.db
        .selectFrom('packages')
        .select('id')
        .where('tenant_id', '=', ctx.tenantId)
        .where('name', '=', item.package.toLowerCase())
        .executeTakeFirst();
      if (!pkg) throw invalid(`${field}.package`, `package ${item.package} does not exist`);
      let normalized: string;
      try {
        normalized = normalizeVersion(item.version);
      } catch (err) {
        throw invalid(`${field}.version`, (err as Error).message);
      }
      const version = await this.db
        .selectFrom('versions')
        .select('id')
        .where('package_id', '=', pkg.id)
        .where('version_normalized', '=', normalized)
        .executeTakeFirst();
      if (!version) {
        throw invalid(`${field}.version`, `${item.package} has no version ${item.version}`);
      }
      out.set(`${pkg.id}@${normalized}`, { packageId: pkg.id, normalized });
    }
    return [...out.values()];
  }

  private assertTransition(row: CustomerRow, op: keyof typeof TRANSITIONS): void {
    const allowed: readonly string[] = TRANSITIONS[op];
    if (!allowed.includes(row.status)) {
      throw conflict(`Cannot ${op} a customer whose status is ${row.status}`);
    }
  }

  private async setStatus(
    ctx: Ctx,
    row: CustomerRow,
    status: CustomerStatus,
    reason: string | null,
    operation: keyof typeof TRANSITIONS,
    db: Db,
    details: Record<string, unknown> = {},
  ): Promise<CustomerRow> {
    const updated_at = nowIso();
    await store.updateCustomer(db, ctx.tenantId, row.id, {
      status,
      status_reason: reason,
      updated_at,
    });
    await recordAudit(db, ctx, {
      action: `customer.${operation}`,
      target: { type: 'customer', id: row.id },
      summary: { from: row.status, to: status, reason, ...details },
    });
    this.deps.events.publish({
      type: 'customer.activity',
      tenantId: ctx.tenantId,
      customerId: row.id,
      activity: 'STATUS_CHANGED',
      package: null,
      version: null,
      at: updated_at,
    });
    return { ...row, status, status_reason: reason, updated_at };
  }
}
