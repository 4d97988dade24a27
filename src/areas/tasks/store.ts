import type { Selectable } from 'kysely';
import type { Db, Dialect } from '../../infra/db/connection.js';
import type { TasksTable } from '../../infra/db/schema.js';

export type TaskRow = Selectable<TasksTable>;

export async function findTask(db: Db, tenantId: string, id: string) {
  return db
    .selectFrom('tasks')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The pending or running task with this dedupe key, if any. */
export async function findActiveTask(db: Db, tenantId: string, dedupeKey: string) {
  return db
    .selectFrom('tasks')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('dedupe_key', '=', dedupeKey)
    .where('status', 'in', ['pending', 'running'])
    .orderBy('created_at', 'asc')
    .executeTakeFirst();
}

/**
 * Claims the oldest runnable task for one worker in one statement, so two workers never get the
 * same task: PostgreSQL skips rows other transactions hold, SQLite serializes writers anyway.
 * A running task whose lease ran out (its worker died) is runnable again.
 */
export async function claimNextTask(
  db: Db,
  dialect: Dialect,
  workerId: string,
  now: string,
  leaseUntil: string,
): Promise<TaskRow | undefined> {
  return db
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
        .orderBy('created_at', 'asc')
        .limit(1);
      if (dialect === 'postgres') next = next.forUpdate().skipLocked();
      return next;
    })
    .returningAll()
    .executeTakeFirst();
}
