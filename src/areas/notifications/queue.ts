import { nowIso } from '../../context.js';
import { newId } from '../../infra/crypto.js';
import type { Db } from '../../infra/db/connection.js';
import { forTenant } from '../../infra/db/tenant-scope.js';
import { readRecipients } from './recipients.js';

/** The task that mails a tenant's recipients about the outbox events after its cursor. */
export const NOTIFY_TASK = 'notifications.send';

/** The outbox event types a mail may be about (docs/notifications.md). */
export const MAIL_EVENT_TYPES = [
  'usage.warning',
  'usage.limit_reached',
  'vulnerability.detected',
  'package.synced',
  'proxy.upstream_unreachable',
  'proxy.upstream_recovered',
] as const;

const MAIL_TYPES: ReadonlySet<string> = new Set(MAIL_EVENT_TYPES);

/**
 * Whether a sync event ends a failed sync: its last attempt failed. An attempt the task tries
 * again (`will_retry`) is not the sync's outcome yet; events written before the flag existed
 * count as outcomes.
 */
export function isFailedSync(data: Record<string, unknown>): boolean {
  return data.status === 'failed' && data.will_retry !== true;
}

/** Whether an event may lead to a mail (a sync only when it failed for good). */
export function mayMail(event: { type: string; data: Record<string, unknown> }): boolean {
  if (!MAIL_TYPES.has(event.type)) return false;
  return event.type !== 'package.synced' || isFailedSync(event.data);
}

/**
 * In the events' transaction: when one of them may lead to a mail and the tenant has
 * recipients, a pending `notifications.send` task (one at a time: a pending one already covers
 * these events, since it reads from the cursor when it runs). The task row commits with the
 * events, so a crash right after the commit still leaves the work queued.
 */
export async function queueNotifications(
  db: Db,
  tenantId: string,
  events: readonly { type: string; data: Record<string, unknown> }[],
): Promise<boolean> {
  if (!events.some(mayMail)) return false;
  if ((await readRecipients(db, tenantId)).length === 0) return false;
  const tasks = forTenant(db, tenantId);
  const pending = await tasks
    .selectFrom('tasks')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('dedupe_key', '=', NOTIFY_TASK)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (pending) return false;
  const now = nowIso();
  await tasks
    .insertInto('tasks')
    .values({
      id: newId(),
      tenant_id: tenantId,
      type: NOTIFY_TASK,
      payload: '{}',
      status: 'pending',
      attempts: 0,
      error: null,
      result: null,
      // At most one runs at a time (tasks_one_running_per_key): two never mail the same event.
      dedupe_key: NOTIFY_TASK,
      created_at: now,
      started_at: null,
      finished_at: null,
      locked_by: null,
      lease_expires_at: null,
      run_after: now,
    })
    .execute();
  return true;
}
