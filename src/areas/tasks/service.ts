import { EventEmitter } from 'node:events';
import type { Ctx, Deps } from '../../context.js';
import { nowIso } from '../../context.js';
import { newId } from '../../infra/crypto.js';
import { notFound } from '../../errors.js';
import * as store from './store.js';
import type { TaskRow } from './store.js';

/** Queues background work as rows in the database, where any worker process can claim it. */
export class TaskService {
  /** Wakes an in-process worker as soon as work is queued, instead of waiting for its poll. */
  readonly queued = new EventEmitter();

  constructor(private readonly deps: Deps) {}

  /**
   * Queues a task, or returns the pending/running one with the same dedupe key so the same work
   * is never queued twice.
   */
  async enqueue(
    ctx: Ctx,
    type: string,
    payload: Record<string, unknown>,
    dedupeKey: string | null = null,
  ): Promise<TaskRow> {
    if (dedupeKey) {
      const active = await store.findActiveTask(this.deps.db, ctx.tenantId, dedupeKey);
      if (active) return active;
    }
    const now = nowIso();
    const row: TaskRow = {
      id: newId(),
      tenant_id: ctx.tenantId,
      type,
      payload: JSON.stringify(payload),
      status: 'pending',
      attempts: 0,
      error: null,
      result: null,
      dedupe_key: dedupeKey,
      created_at: now,
      started_at: null,
      finished_at: null,
      locked_by: null,
      lease_expires_at: null,
      run_after: now,
    };
    await this.deps.db.insertInto('tasks').values(row).execute();
    this.queued.emit('task');
    return row;
  }

  async get(ctx: Ctx, id: string): Promise<TaskRow> {
    const row = await store.findTask(this.deps.db, ctx.tenantId, id);
    if (!row) throw notFound('Task');
    return row;
  }
}
