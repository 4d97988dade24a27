import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Ctx, Deps } from '../../context.js';
import { nowIso } from '../../context.js';
import { newId } from '../../infra/crypto.js';
import { notFound } from '../../errors.js';
import type { FieldError } from '../../errors.js';
import { AppError } from '../../errors.js';
import { CLEANUP_TASK, SYNC_ALL_TASK, SYNC_TASK } from './schema.js';
import type { CreateTaskInput, TaskStatus } from './schema.js';
import * as store from './store.js';
import type { TaskRow } from './store.js';
import { transact } from '../../unit-of-work.js';
import { cleanupTenant } from './cleanup.js';
import type { CleanupResult } from './cleanup.js';
import { systemCtx } from './system-ctx.js';
import type { PackageSyncs } from './ports.js';
import type { Db } from '../../infra/db/connection.js';

export interface EnqueueOptions {
  /**
   * The work must see a change made just now (a push): a running task with the same dedupe key
   * may have started too early, so a pending follow-up is queued (once) instead of reusing it.
   */
  afterRunning?: boolean;
}

/** Queues background work as rows in the database, where any worker process can claim it. */
export class TaskService {
  /** Wakes an in-process worker as soon as work is queued, instead of waiting for its poll. */
  readonly queued = new EventEmitter();
  /** Set by createServices: the packages area's sync queueing (ports.ts). */
  packageSyncs: PackageSyncs | null = null;

  constructor(private readonly deps: Deps) {
    // One listener per Worker; tests may run several workers on one service.
    this.queued.setMaxListeners(0);
  }

  /**
   * Queues a task, or returns the pending/running one with the same dedupe key so the same work
   * is never queued twice.
   */
  async enqueue(
    ctx: Ctx,
    type: string,
    payload: Record<string, unknown>,
    dedupeKey: string | null = null,
    options: EnqueueOptions = {},
  ): Promise<TaskRow> {
    const auditAs = ctx.actor.kind === 'system' ? null : ctx;
    return (await this.enqueueDeduped(ctx.tenantId, type, payload, dedupeKey, auditAs, options))
      .row;
  }

  /**
   * Like enqueue, and says whether a new task was created. One unit of work (joining `within`'s
   * when given): the worker is woken only once the task row has committed.
   */
  async enqueueDeduped(
    tenantId: string,
    type: string,
    payload: Record<string, unknown>,
    dedupeKey: string | null,
    auditAs: Ctx | null = null,
    options: EnqueueOptions = {},
    within?: Db,
  ): Promise<{ row: TaskRow; created: boolean }> {
    const wake = () => {
      this.queued.emit('task');
    };
    return transact(
      this.deps,
      auditAs ?? systemCtx(tenantId),
      async (tx) => {
        if (dedupeKey) {
          const statuses = options.afterRunning ? ['pending'] : ['pending', 'running'];
          const active = await store.findActiveTask(tx.db, tenantId, dedupeKey, statuses);
          if (active) {
            // A task waiting for its retry runs now when someone asks for the same work again.
            const now = nowIso();
            if (active.status === 'pending' && active.run_after > now) {
              await store.runPendingNow(tx.db, tenantId, active.id, now);
              tx.afterCommit(wake);
              return { row: { ...active, run_after: now }, created: false };
            }
            return { row: active, created: false };
          }
        }
        const row = newTaskRow(newId(), tenantId, type, payload, dedupeKey);
        await store.insertTask(tx.db, row);
        if (auditAs) {
          await tx.audit({
            action: 'task.queue',
            target: { type: 'task', id: row.id },
            summary: { type, payload },
          });
        }
        tx.afterCommit(wake);
        return { row, created: true };
      },
      { within },
    );
  }

  /**
   * Queues the task of one schedule period: its id derives from the period, so several nodes
   * scheduling the same period insert one row between them. False when it existed already.
   */
  async enqueueScheduled(
    tenantId: string,
    type: string,
    period: string,
    payload: Record<string, unknown> = {},
  ): Promise<boolean> {
    const digest = crypto.createHash('sha1').update(`${tenantId}\n${period}`).digest('hex');
    const id = `sched:${type}:${digest.slice(0, 24)}`;
    return transact(this.deps, systemCtx(tenantId), async (tx) => {
      // Nothing new while the same work is still pending or running (queued by hand, say).
      if (await store.findActiveTask(tx.db, tenantId, type)) return false;
      const created = await store.insertTaskOnce(
        tx.db,
        newTaskRow(id, tenantId, type, payload, type),
      );
      if (created) {
        tx.afterCommit(() => {
          this.queued.emit('task');
        });
      }
      return created;
    });
  }

  async get(ctx: Ctx, id: string): Promise<TaskRow> {
    const row = await store.findTask(this.deps.db, ctx.tenantId, id);
    if (!row) throw notFound('Task');
    return row;
  }

  list(ctx: Ctx, filter: { status?: TaskStatus; type?: string; offset: number; limit: number }) {
    return store.listTasks(this.deps.db, ctx.tenantId, filter);
  }

  /** `POST /tasks`: the payload is validated per type, then the task is queued (deduplicated). */
  async create(ctx: Ctx, input: CreateTaskInput): Promise<TaskRow> {
    const payload = input.payload ?? {};
    if (input.type === SYNC_TASK) {
      onlyFields(payload, ['package']);
      return this.syncs().fromTaskPayload(ctx, payload);
    }
    onlyFields(payload, []);
    return input.type === SYNC_ALL_TASK ? this.queueSyncAll(ctx) : this.queueCleanup(ctx);
  }

  /** `POST /tasks/sync-all`: one task that queues a sync of every package with a repository. */
  queueSyncAll(ctx: Ctx): Promise<TaskRow> {
    return this.enqueue(ctx, SYNC_ALL_TASK, {}, SYNC_ALL_TASK);
  }

  /** `POST /tasks/cleanup`. */
  queueCleanup(ctx: Ctx): Promise<TaskRow> {
    return this.enqueue(ctx, CLEANUP_TASK, {}, CLEANUP_TASK);
  }

  /** The `packages.sync_all` handler (the packages area's, see ports.ts). */
  syncAll(tenantId: string, signal?: AbortSignal): Promise<{ packages: number; queued: number }> {
    return this.syncs().syncAll(tenantId, signal);
  }

  /** The `cleanup` handler (cleanup.ts). */
  cleanup(tenantId: string, signal?: AbortSignal): Promise<CleanupResult> {
    return cleanupTenant(this.deps, tenantId, signal);
  }

  private syncs(): PackageSyncs {
    if (!this.packageSyncs) throw new Error('TaskService built without packageSyncs');
    return this.packageSyncs;
  }
}

function newTaskRow(
  id: string,
  tenantId: string,
  type: string,
  payload: Record<string, unknown>,
  dedupeKey: string | null,
): TaskRow {
  const now = nowIso();
  return {
    id,
    tenant_id: tenantId,
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
}

/** Unknown payload fields are rejected like unknown body fields (docs/api.md). */
function onlyFields(payload: Record<string, unknown>, allowed: string[]): void {
  const details: FieldError[] = Object.keys(payload)
    .filter((k) => !allowed.includes(k))
    .map((k) => ({ field: `payload.${k}`, message: 'unknown field' }));
  if (details.length > 0) {
    throw new AppError(
      'VALIDATION_ERROR',
      details.map((d) => `${d.field}: ${d.message}`).join('; '),
      details,
    );
  }
}
