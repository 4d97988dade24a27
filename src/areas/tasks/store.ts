import type { Selectable } from 'kysely';
import { pageOf } from '../../infra/db/page.js';
import type { Db, Dialect } from '../../infra/db/connection.js';
import type { TasksTable } from '../../infra/db/schema.js';
import { isUniqueViolation } from '../../infra/db/errors.js';
import { forTenant, unscoped } from '../../infra/db/tenant-scope.js';

export type TaskRow = Selectable<TasksTable>;

export async function findTask(db: Db, tenantId: string, id: string) {
  return forTenant(db, tenantId)
    .selectFrom('tasks')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The oldest pending or running task with this dedupe key (or only pending ones), if any. */
export async function findActiveTask(
  db: Db,
  tenantId: string,
  dedupeKey: string,
  statuses: readonly string[] = ['pending', 'running'],
) {
  return forTenant(db, tenantId)
    .selectFrom('tasks')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('dedupe_key', '=', dedupeKey)
    .where('status', 'in', statuses)
    .orderBy('created_at', 'asc')
    .executeTakeFirst();
}

/**
 * Claims the oldest runnable task for one worker in one statement, so two workers never get the
 * same task: PostgreSQL skips rows other transactions hold, SQLite serializes writers anyway.
 * A running task whose lease ran out (its worker died) is runnable again. A pending task waits
 * while another task with its dedupe key runs (a follow-up sync never overlaps the running one).
 */
export async function claimNextTask(
  db: Db,
  dialect: Dialect,
  workerId: string,
  now: string,
  leaseUntil: string,
): Promise<TaskRow | undefined> {
  try {
    return await claimQuery(db, dialect, workerId, now, leaseUntil).executeTakeFirst();
  } catch (err) {
    // Another worker made a task with the same dedupe key running in the same instant
    // (tasks_one_running_per_key): nothing claimed; the next poll skips it.
    if (isUniqueViolation(err)) return undefined;
    throw err;
  }
}

function claimQuery(db: Db, dialect: Dialect, workerId: string, now: string, leaseUntil: string) {
  return unscoped(db, 'a worker claims the next task of any tenant')
    .updateTable('tasks')
    .set((eb) => ({
      status: 'running',
      locked_by: workerId,
      lease_expires_at: leaseUntil,
      started_at: now,
      attempts: eb('attempts', '+', 1),
    }))
    .where('id', '=', (eb) => {
      let next = eb
        .selectFrom('tasks')
        .select('id')
        .where((w) =>
          w.or([
            w.and([w('status', '=', 'pending'), w('run_after', '<=', now)]),
            w.and([w('status', '=', 'running'), w('lease_expires_at', '<', now)]),
          ]),
        )
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('tasks as live')
                .select('live.id')
                .whereRef('live.tenant_id', '=', 'tasks.tenant_id')
                .whereRef('live.dedupe_key', '=', 'tasks.dedupe_key')
                .whereRef('live.id', '!=', 'tasks.id')
                .where('live.status', '=', 'running')
                .where('live.lease_expires_at', '>=', now),
            ),
          ),
        )
        .orderBy('created_at', 'asc')
        .limit(1);
      if (dialect === 'postgres') next = next.forUpdate().skipLocked();
      return next;
    })
    .returningAll();
}

export async function listTasks(
  db: Db,
  tenantId: string,
  filter: { status?: string; type?: string; offset: number; limit: number },
): Promise<{ rows: TaskRow[]; total: number }> {
  let base = forTenant(db, tenantId).selectFrom('tasks').where('tenant_id', '=', tenantId);
  if (filter.status) base = base.where('status', '=', filter.status);
  if (filter.type) base = base.where('type', '=', filter.type);
  return pageOf(
    base,
    (qb) => qb.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'),
    filter,
  );
}

/**
 * Inserts a task unless a row with its id exists already. Scheduled tasks get an id derived from
 * their period, so any number of nodes scheduling the same period create one task between them.
 */
export async function insertTask(db: Db, row: TaskRow): Promise<void> {
  await db.insertInto('tasks').values(row).execute();
}

export async function insertTaskOnce(db: Db, row: TaskRow): Promise<boolean> {
  const result = await db
    .insertInto('tasks')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** Makes a pending task that waits for a retry runnable now (an explicit request skips backoff). */
export async function runPendingNow(
  db: Db,
  tenantId: string,
  id: string,
  now: string,
): Promise<void> {
  await forTenant(db, tenantId)
    .updateTable('tasks')
    .set({ run_after: now })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('run_after', '>', now)
    .execute();
}

/** Deletes finished (done or failed) tasks of a tenant that finished before `before`. */
export async function deleteFinishedTasks(db: Db, tenantId: string, before: string) {
  const result = await forTenant(db, tenantId)
    .deleteFrom('tasks')
    .where('tenant_id', '=', tenantId)
    .where('status', 'in', ['done', 'failed'])
    .where('finished_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes customer tokens of a tenant whose expiry has passed (they answer 401 anyway). */
export async function deleteExpiredCustomerTokens(db: Db, tenantId: string, now: string) {
  const result = await forTenant(db, tenantId)
    .deleteFrom('customer_tokens')
    .where('tenant_id', '=', tenantId)
    .where('expires_at', 'is not', null)
    .where('expires_at', '<', now)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Deletes webhook deliveries and replay receipts received before `before`, and OAuth
 * authorizations that were never completed (their state expired). Several deletes: run it in a
 * unit of work (transact), so they commit together.
 */
export async function deleteOldWebhookRecords(
  db: Db,
  tenantId: string,
  before: string,
  now: string,
) {
  const old = forTenant(db, tenantId)
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('received_at', '<', before);
  await forTenant(db, tenantId)
    .deleteFrom('webhook_delivery_packages')
    .where('tenant_id', '=', tenantId)
    .where('delivery_id', 'in', old)
    .execute();
  const deliveries = await forTenant(db, tenantId)
    .deleteFrom('webhook_deliveries')
    .where('tenant_id', '=', tenantId)
    .where('received_at', '<', before)
    .executeTakeFirst();
  await forTenant(db, tenantId)
    .deleteFrom('webhook_receipts')
    .where('tenant_id', '=', tenantId)
    .where('received_at', '<', before)
    .execute();
  await forTenant(db, tenantId)
    .deleteFrom('oauth_states')
    .where('tenant_id', '=', tenantId)
    .where('expires_at', '<', now)
    .execute();
  return Number(deliveries.numDeletedRows);
}

/**
 * Moves a running task's lease to `until` while `workerId` still holds it; false when it does
 * not (the lease ran out and another worker claimed the task).
 */
export async function renewLease(
  db: Db,
  taskId: string,
  workerId: string,
  until: string,
): Promise<boolean> {
  const result = await unscoped(db, 'the worker holding the lease renews it, whatever the tenant')
    .updateTable('tasks')
    .set({ lease_expires_at: until })
    .where('id', '=', taskId)
    .where('locked_by', '=', workerId)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
