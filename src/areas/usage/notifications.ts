import type { Insertable } from 'kysely';
import type { UsageNotificationsTable } from '../../infra/db/schema.js';
import type { Deps } from '../../context.js';
import type { Db } from '../../infra/db/connection.js';
import { newId } from '../../infra/crypto.js';
import { forTenant } from '../../infra/db/tenant-scope.js';
import type { PlanLimits } from '../../config/cloud.js';
import { planLimitsOf } from './limits.js';
import { storedStorageUsed } from './storage-counter.js';
import { transact } from '../../unit-of-work.js';

/** The metrics of `GET /tenants/{id}/usage` that plans limit. */
export type UsageMetric = 'bandwidth_bytes' | 'storage_bytes' | 'packages' | 'customers';
export const USAGE_METRICS: readonly UsageMetric[] = [
  'bandwidth_bytes',
  'storage_bytes',
  'packages',
  'customers',
];

/** A notification as the platform API answers it. */
export interface UsageNotification {
  id: string;
  type: 'usage_warning' | 'usage_limit_reached';
  metric: UsageMetric;
  percent: 80 | 100;
  value: number;
  limit: number;
  created_at: string;
}

const THRESHOLDS = [
  { percent: 80, type: 'usage_warning' },
  { percent: 100, type: 'usage_limit_reached' },
] as const;

export const currentPeriod = (d = new Date()): string => d.toISOString().slice(0, 7);

/** This month's use of one metric, as committed. */
export async function usageValue(db: Db, tenantId: string, metric: UsageMetric): Promise<number> {
  const scoped = forTenant(db, tenantId);
  switch (metric) {
    case 'bandwidth_bytes': {
      const row = await scoped
        .selectFrom('usage_counters')
        .select('value')
        .where('tenant_id', '=', tenantId)
        .where('metric', '=', 'bandwidth')
        .where('period', '=', currentPeriod())
        .executeTakeFirst();
      return Number(row?.value ?? 0);
    }
    case 'storage_bytes':
      return storedStorageUsed(scoped, tenantId);
    case 'packages':
    case 'customers': {
      const { n } = await scoped
        .selectFrom(metric)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('tenant_id', '=', tenantId)
        .executeTakeFirstOrThrow();
      return Number(n);
    }
  }
}

/**
 * Raises the notifications a Cloud tenant's use of `metrics` has earned this month: 80 % gives
 * `usage_warning`, 100 % `usage_limit_reached`, a jump past both raises both. Each is raised once
 * per metric, threshold and month (a unique key, so concurrent nodes cannot raise one twice).
 * Call after the change has committed; outside Cloud, or on an unlimited metric, it does nothing.
 * Never throws: a failure is logged, and the next change checks again.
 */
export async function raiseUsageNotifications(
  deps: Pick<Deps, 'db' | 'config' | 'log' | 'events' | 'generations'>,
  tenantId: string,
  metrics: readonly UsageMetric[],
  /** The tenant's plan when the caller knows it already (read from the database otherwise). */
  knownPlan?: PlanLimits | null,
): Promise<void> {
  try {
    const plan = knownPlan === undefined ? await planLimitsOf(deps, deps.db, tenantId) : knownPlan;
    if (!plan) return;
    const period = currentPeriod();
    const createdAt = new Date().toISOString();
    const rows: Insertable<UsageNotificationsTable>[] = [];
    for (const metric of metrics) {
      const limit = plan[metric];
      if (limit === null || limit <= 0) continue;
      const value = await usageValue(deps.db, tenantId, metric);
      for (const { percent, type } of THRESHOLDS) {
        if (value * 100 < limit * percent) continue;
        rows.push({
          id: newId(),
          tenant_id: tenantId,
          type,
          metric,
          percent,
          period,
          value,
          limit_value: limit,
          created_at: createdAt,
        });
      }
    }
    if (rows.length === 0) return;
    const system = { tenantId, actor: { kind: 'system' as const, id: null } };
    await transact(deps, system, async (tx) => {
      // Only the rows raised now (not those another node or an earlier change raised) are events.
      const raised = await forTenant(tx.db, tenantId)
        .insertInto('usage_notifications')
        .values(rows)
        .onConflict((oc) => oc.columns(['tenant_id', 'metric', 'percent', 'period']).doNothing())
        .returning(['type', 'metric', 'percent', 'value', 'limit_value'])
        .execute();
      for (const r of raised) {
        tx.emit(r.type === 'usage_warning' ? 'usage.warning' : 'usage.limit_reached', {
          metric: r.metric,
          percent: Number(r.percent),
          value: Number(r.value),
          limit: Number(r.limit_value),
        });
      }
    });
  } catch (err) {
    deps.log.error({ err, tenant: tenantId, metrics }, 'usage notifications check failed');
  }
}

/** `GET /tenants/{id}/notifications`, oldest first. */
export async function listUsageNotifications(
  db: Db,
  tenantId: string,
  page: { offset: number; limit: number },
) {
  const scoped = forTenant(db, tenantId);
  const [rows, total] = await Promise.all([
    scoped
      .selectFrom('usage_notifications')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .orderBy('created_at')
      .orderBy('metric')
      .orderBy('percent')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    scoped
      .selectFrom('usage_notifications')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('tenant_id', '=', tenantId)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((r): UsageNotification => ({
      id: r.id,
      type: r.type as UsageNotification['type'],
      metric: r.metric as UsageMetric,
      percent: Number(r.percent) as UsageNotification['percent'],
      value: Number(r.value),
      limit: Number(r.limit_value),
      created_at: r.created_at,
    })),
    total: Number(total.n),
  };
}
