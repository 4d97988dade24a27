import type { Deps } from '../../context.js';
import type { PlanLimits } from '../../config/cloud.js';
import type { Db } from '../../infra/db/connection.js';
import { DEFAULT_TENANT_ID } from '../../infra/db/schema.js';

/** The limits of the tenant's plan in the Cloud edition; null elsewhere (no plans). */
export async function planLimitsOf(
  deps: Pick<Deps, 'config'>,
  db: Db,
  tenantId: string,
): Promise<PlanLimits | null> {
  if (deps.config.edition !== 'cloud' || tenantId === DEFAULT_TENANT_ID) return null;
  // The tenants table is the platform's own: it carries no tenant_id to pin.
  const row = await db
    .selectFrom('tenants')
    .select('plan')
    .where('id', '=', tenantId)
    .executeTakeFirst();
  return (row && deps.config.cloud.plans[row.plan]) ?? null;
}

/** Archive limits in bytes, 0 = unlimited (the X-*-Limit headers' convention). */
export interface ArchiveLimits {
  bandwidth: number;
  storage: number;
}

/**
 * The tenant's archive limits: its plan's in Cloud, else BANDWIDTH_LIMIT_BYTES and
 * STORAGE_LIMIT_BYTES.
 */
export async function archiveLimitsOf(
  deps: Pick<Deps, 'config'>,
  db: Db,
  tenantId: string,
): Promise<ArchiveLimits> {
  return archiveLimitsFrom(deps, await planLimitsOf(deps, db, tenantId));
}

function archiveLimitsFrom(deps: Pick<Deps, 'config'>, plan: PlanLimits | null): ArchiveLimits {
  if (plan === null) {
    return { bandwidth: deps.config.bandwidthLimitBytes, storage: deps.config.storageLimitBytes };
  }
  return { bandwidth: plan.bandwidth_bytes ?? 0, storage: plan.storage_bytes ?? 0 };
}

/** How long a node trusts a tenant's plan it read; a plan change reaches other nodes within it. */
const TRUST_MS = 1000;
const MAX_KNOWN = 10_000;

/**
 * Each tenant's plan limits, remembered for a second per tenant: downloads and GraphQL requests
 * read them on every call. Outside Cloud there are no plans: the environment's limits apply.
 */
export class TenantLimitsCache {
  private readonly known = new Map<string, { at: number; plan: PlanLimits | null }>();

  constructor(private readonly deps: Pick<Deps, 'config' | 'db' | 'peers'>) {
    // A plan change anywhere in this serve reaches this cache before the change answers.
    deps.peers.on('forget', ({ cache, key }) => {
      if (cache === 'tenant-plan') this.forget(key);
    });
  }

  /** The tenant's plan limits in Cloud; null elsewhere. */
  async plan(tenantId: string): Promise<PlanLimits | null> {
    if (this.deps.config.edition !== 'cloud') return null;
    const hit = this.known.get(tenantId);
    if (hit && Date.now() - hit.at < TRUST_MS) return hit.plan;
    const plan = await planLimitsOf(this.deps, this.deps.db, tenantId);
    if (this.known.size >= MAX_KNOWN) this.known.clear();
    this.known.set(tenantId, { at: Date.now(), plan });
    return plan;
  }

  /** Archive limits in bytes, 0 = unlimited: the plan's in Cloud, else the environment's. */
  async archive(tenantId: string): Promise<ArchiveLimits> {
    return archiveLimitsFrom(this.deps, await this.plan(tenantId));
  }

  /** Forgets what this node knows of a tenant's plan (after a change made here). */
  forget(tenantId: string): void {
    this.known.delete(tenantId);
  }
}
