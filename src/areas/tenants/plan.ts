import type { Deps } from '../../context.js';
import { AppError } from '../../errors.js';
import type { PlanLimits } from '../../config-cloud.js';
import type { Db } from '../../infra/db/connection.js';
import { DEFAULT_TENANT_ID } from '../../infra/db/schema.js';
import { forTenant } from '../../infra/db/tenant-scope.js';

/** The limits of the tenant's plan in the Cloud edition; null elsewhere (no plans). */
export async function planLimitsOf(
  deps: Pick<Deps, 'config'>,
  db: Db,
  tenantId: string,
): Promise<PlanLimits | null> {
  if (deps.config.edition !== 'cloud' || tenantId === DEFAULT_TENANT_ID) return null;
  const row = await db
    .selectFrom('tenants')
    .select('plan')
    .where('id', '=', tenantId)
    .executeTakeFirst();
  return (row && deps.config.cloud.plans[row.plan]) ?? null;
}

/**
 * Inside the unit of work that creates one more package or customer: 403 PLAN_LIMIT_REACHED when
 * the plan's count is reached. On PostgreSQL the tenant's row is locked first, so concurrent
 * creations count one after another and the limit is exact (SQLite runs one writer at a time).
 */
export async function assertCountLeft(
  deps: Pick<Deps, 'config' | 'dialect'>,
  trx: Db,
  tenantId: string,
  what: 'packages' | 'customers',
): Promise<void> {
  const limits = await planLimitsOf(deps, trx, tenantId);
  const limit = limits?.[what];
  if (limit === null || limit === undefined) return;
  if (deps.dialect === 'postgres') {
    await trx.selectFrom('tenants').select('id').where('id', '=', tenantId).forUpdate().execute();
  }
  const { n } = await forTenant(trx, tenantId)
    .selectFrom(what)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('tenant_id', '=', tenantId)
    .executeTakeFirstOrThrow();
  if (Number(n) >= limit) {
    throw new AppError(
      'PLAN_LIMIT_REACHED',
      `Your plan allows ${limit} ${what}; ${Number(n)} exist. Delete one or change plan`,
    );
  }
}
