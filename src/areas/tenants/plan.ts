import type { Deps } from '../../context.js';
import { AppError } from '../../errors.js';
import type { Db } from '../../infra/db/connection.js';
import { requireUnit } from '../../unit-of-work.js';
import { planLimitsOf } from '../usage/limits.js';
import { raiseUsageNotifications, usageValue } from '../usage/notifications.js';

/**
 * Inside the unit of work that creates one more package or customer: 403 PLAN_LIMIT_REACHED when
 * the plan's count is reached. On PostgreSQL the tenant's row is locked first, so concurrent
 * creations count one after another and the limit is exact (SQLite runs one writer at a time).
 * Once the unit commits, the 80 % and 100 % notifications are raised when earned.
 */
export async function assertCountLeft(
  deps: Pick<Deps, 'config' | 'dialect' | 'db' | 'log' | 'events' | 'generations'>,
  trx: Db,
  tenantId: string,
  what: 'packages' | 'customers',
): Promise<void> {
  const limits = await planLimitsOf(deps, trx, tenantId);
  const limit = limits?.[what];
  if (limit === null || limit === undefined) return;
  requireUnit(trx).afterCommit(() => raiseUsageNotifications(deps, tenantId, [what]));
  if (deps.dialect === 'postgres') {
    await trx.selectFrom('tenants').select('id').where('id', '=', tenantId).forUpdate().execute();
  }
  const n = await usageValue(trx, tenantId, what);
  if (n >= limit) {
    throw new AppError(
      'PLAN_LIMIT_REACHED',
      `Your plan allows ${limit} ${what}; ${n} exist. Delete one or change plan`,
    );
  }
}
