import type { Ctx, Deps } from '../../context.js';
import {
  USAGE_METRICS,
  currentPeriod,
  listUsageNotifications,
  usageValue,
  raiseUsageNotifications,
} from '../usage/notifications.js';
import type { UsageService } from '../usage/service.js';
import { nowIso } from '../../context.js';
import { conflict, invalid, notFound } from '../../errors.js';
import { digest, generateSecret, newId } from '../../infra/crypto.js';
import { isUniqueViolation } from '../../infra/db/errors.js';
import { DEFAULT_TENANT_ID } from '../../infra/db/schema.js';
import { TENANT_TABLES } from '../../infra/db/tenant-scope.js';
import { transact } from '../../unit-of-work.js';
import { TEAM_TOKEN_PREFIX } from '../auth/service.js';
import type { TaskService } from '../tasks/service.js';
import { RESERVED_SUBDOMAINS } from './host.js';
import type { CreateTenantInput, TenantDto } from './schema.js';
import {
  deleteTenantRow,
  deleteTenantRowsOf,
  findTenant,
  insertTenant,
  insertTenantTeamToken,
  listTenants,
  markTenantDeleted,
  updateTenant,
} from './store.js';

export const TENANT_REMOVE_TASK = 'tenant.remove';

type TenantRow = TenantDto;

/**
 * What the platform's changes run as: tenants are platform rows, audited and queued under
 * `default`. The caller's Ctx (the platform actor) is what POLICY authorizes.
 */
const platformCtx: Ctx = { tenantId: DEFAULT_TENANT_ID, actor: { kind: 'system', id: null } };

const SUBDOMAIN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])$/;

/**
 * The platform API of the Cloud edition (docs/cloud.md): tenants, their plans and
 * status. A change makes every process of the serve forget what it knew of the tenant's host
 * (and plan) before the call answers; other nodes within their second of trust.
 */
export class TenantService {
  /** Bandwidth and storage figures (the Composer surface's meter), set once services exist. */
  usage: Pick<UsageService, 'figures' | 'limits' | 'flush'> | null = null;

  constructor(
    private readonly deps: Deps,
    private readonly tasks: TaskService,
  ) {}

  private hostChanged(subdomain: string): Promise<void> {
    return this.deps.peers.everywhere({ kind: 'forget', cache: 'tenant-host', key: subdomain });
  }

  private get plans() {
    return this.deps.config.cloud.plans;
  }

  async list(_ctx: Ctx, page: { offset: number; limit: number }) {
    const { rows, total } = await listTenants(this.deps.db, page);
    return { rows: rows as TenantRow[], total };
  }

  async get(_ctx: Ctx, id: string): Promise<TenantRow> {
    const row = await findTenant(this.deps.db, id);
    if (!row) throw notFound(`Tenant ${id}`);
    return row as TenantRow;
  }

  async create(
    _ctx: Ctx,
    input: CreateTenantInput,
  ): Promise<{ tenant: TenantRow; ownerToken: string }> {
    const subdomain = input.subdomain;
    if (!SUBDOMAIN.test(subdomain)) {
      throw invalid('subdomain', 'must be a lower-case DNS label: a-z, 0-9 and inner hyphens');
    }
    if (RESERVED_SUBDOMAINS.has(subdomain)) {
      throw invalid('subdomain', `"${subdomain}" is reserved for the service itself`);
    }
    const plan = input.plan ?? Object.keys(this.plans)[0]!;
    this.assertPlan(plan);
    const now = nowIso();
    const tenant: TenantRow = {
      id: newId(),
      name: input.name,
      subdomain,
      plan,
      status: 'active',
      created_at: now,
      updated_at: now,
    };
    const ownerToken = generateSecret(TEAM_TOKEN_PREFIX);
    try {
      await transact(this.deps, platformCtx, async (tx) => {
        await insertTenant(tx.db, tenant);
        await insertTenantTeamToken(tx.db, tenant.id, {
          id: newId(),
          tenant_id: tenant.id,
          name: 'owner',
          level: 'owner',
          token_digest: digest(ownerToken),
          created_at: now,
          last_used_at: null,
        });
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(`The subdomain ${subdomain} is taken`);
      throw err;
    }
    await this.hostChanged(subdomain);
    return { tenant, ownerToken };
  }

  async update(
    ctx: Ctx,
    id: string,
    patch: { name?: string; plan?: string; status?: TenantRow['status'] },
  ) {
    const row = await this.get(ctx, id);
    if (patch.plan !== undefined) this.assertPlan(patch.plan);
    const updated = { ...row, ...patch, updated_at: nowIso() };
    await updateTenant(this.deps.db, id, {
      name: updated.name,
      plan: updated.plan,
      status: updated.status,
      updated_at: updated.updated_at,
    });
    await this.hostChanged(row.subdomain);
    if (patch.plan !== undefined && patch.plan !== row.plan) {
      await this.deps.peers.everywhere({ kind: 'forget', cache: 'tenant-plan', key: id });
      // A smaller plan can put use past a threshold at once.
      await raiseUsageNotifications(this.deps, id, USAGE_METRICS);
    }
    return updated;
  }

  /**
   * Deletes the tenant: its hosts answer TENANT_NOT_FOUND at once, and a background task removes
   * every row it owns and its archives, then the tenant itself (freeing the subdomain).
   */
  async delete(ctx: Ctx, id: string): Promise<void> {
    const row = await this.get(ctx, id);
    await markTenantDeleted(this.deps.db, id, nowIso());
    await this.hostChanged(row.subdomain);
    await this.tasks.enqueue(platformCtx, TENANT_REMOVE_TASK, { tenant_id: id }, `tenant:${id}`);
  }

  /**
   * The removal task: every tenant table, then the archives under the tenant's prefix, then the
   * tenant row. Tables go in passes: one a foreign key still holds waits for the next pass.
   */
  async remove(tenantId: string): Promise<{ rows: number; archives: number }> {
    if (tenantId === DEFAULT_TENANT_ID) throw new Error('The default tenant is not removable');
    // Downloads this node counted before the deletion are written first, so they are removed too.
    await this.usage?.flush();
    let rows = await this.removeRows(tenantId);
    let archives = 0;
    for await (const object of this.deps.storage.list(`${tenantId}/`)) {
      await this.deps.storage.delete(object.key);
      archives += 1;
    }
    await deleteTenantRow(this.deps.db, tenantId);
    // A request another node was still serving when the tenant was deleted may have written a
    // row (a download count) since the first pass: sweep once more now that no node resolves it.
    rows += await this.removeRows(tenantId);
    return { rows, archives };
  }

  /** Deletes every row of the tenant, in passes: a table a foreign key still holds waits. */
  private async removeRows(tenantId: string): Promise<number> {
    let pending = [...TENANT_TABLES];
    let rows = 0;
    for (let pass = 0; pending.length > 0 && pass < 5; pass++) {
      const blocked: string[] = [];
      for (const table of pending) {
        try {
          rows += await deleteTenantRowsOf(this.deps.db, tenantId, table);
        } catch {
          blocked.push(table);
        }
      }
      pending = blocked;
    }
    if (pending.length > 0) throw new Error(`Rows of ${pending.join(', ')} could not be removed`);
    return rows;
  }

  /** `GET /tenants/{id}/notifications`: the plan thresholds passed, oldest first. */
  async notificationsOf(ctx: Ctx, id: string, page: { offset: number; limit: number }) {
    await this.get(ctx, id);
    return listUsageNotifications(this.deps.db, id, page);
  }

  /** `GET /tenants/{id}/usage`: this month's use against the plan (docs/cloud.md). */
  async usageOf(ctx: Ctx, id: string) {
    const row = await this.get(ctx, id);
    const plan = this.plans[row.plan];
    const [figures, packages, customers] = await Promise.all([
      this.usage?.figures(id),
      usageValue(this.deps.db, id, 'packages'),
      usageValue(this.deps.db, id, 'customers'),
    ]);
    return {
      tenant_id: id,
      plan: row.plan,
      period: currentPeriod(),
      usage: {
        bandwidth_bytes: figures?.bandwidthUsed ?? 0,
        storage_bytes: figures?.storageUsed ?? 0,
        packages,
        customers,
      },
      limits: {
        bandwidth_bytes: plan?.bandwidth_bytes ?? null,
        storage_bytes: plan?.storage_bytes ?? null,
        packages: plan?.packages ?? null,
        customers: plan?.customers ?? null,
      },
    };
  }

  private assertPlan(plan: string): void {
    if (!Object.hasOwn(this.plans, plan)) {
      throw invalid('plan', `unknown plan; one of ${Object.keys(this.plans).join(', ')}`);
    }
  }
}
