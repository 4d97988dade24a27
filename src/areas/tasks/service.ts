import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Ctx, Deps } from '../../context.js';
import { nowIso } from '../../context.js';
import { newId } from '../../infra/crypto.js';
import { invalid, notFound } from '../../errors.js';
import type { FieldError } from '../../errors.js';
import { AppError } from '../../errors.js';
import type { PackageRow } from '../packages/store.js';
import { findPackageByName } from '../packages/store.js';
import { PACKAGE_NAME_RE } from '../packages/schema.js';
import { assertSyncableAlone } from '../packages/sync-rule.js';
import { CLEANUP_TASK, SYNC_ALL_TASK, SYNC_TASK } from './schema.js';
import type { CreateTaskInput, TaskStatus } from './schema.js';
import * as store from './store.js';
import type { TaskRow } from './store.js';
import { recordAudit } from '../audit/record.js';

export interface EnqueueOptions {
  /**
   * The work must see a change made just now (a push): a running task with the same dedupe key
   * may have started too early, so a pending follow-up is queued (once) instead of reusing it.
   */
  afterRunning?: boolean;
}

/** Finished tasks are kept this long, then the cleanup task removes them. */
export const FINISHED_TASK_RETENTION_DAYS = 30;

/** Queues background work as rows in the database, where any worker process can claim it. */
/** How old an unreferenced archive must be before cleanup deletes it. */
const ORPHAN_ARCHIVE_GRACE_MS = 60 * 60 * 1000;

export class TaskService {
  /** Wakes an in-process worker as soon as work is queued, instead of waiting for its poll. */
  readonly queued = new EventEmitter();

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

  /** Like enqueue, and says whether a new task was created. */
  private async enqueueDeduped(
    tenantId: string,
    type: string,
    payload: Record<string, unknown>,
    dedupeKey: string | null,
    auditAs: Ctx | null = null,
    options: EnqueueOptions = {},
  ): Promise<{ row: TaskRow; created: boolean }> {
    if (dedupeKey) {
      const statuses = options.afterRunning ? ['pending'] : ['pending', 'running'];
      const active = await store.findActiveTask(this.deps.db, tenantId, dedupeKey, statuses);
      if (active) {
        // A task waiting for its retry runs now when someone asks for the same work again.
        const now = nowIso();
        if (active.status === 'pending' && active.run_after > now) {
          await store.runPendingNow(this.deps.db, active.id, now);
          this.queued.emit('task');
          return { row: { ...active, run_after: now }, created: false };
        }
        return { row: active, created: false };
      }
    }
    const row = newTaskRow(newId(), tenantId, type, payload, dedupeKey);
    await this.deps.db.transaction().execute(async (trx) => {
      await trx.insertInto('tasks').values(row).execute();
      if (auditAs) {
        await recordAudit(trx, auditAs, {
          action: 'task.queue',
          target: { type: 'task', id: row.id },
          summary: { type, payload },
        });
      }
    });
    this.queued.emit('task');
    return { row, created: true };
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
    // Nothing new while the same work is still pending or running (queued by hand, say).
    if (await store.findActiveTask(this.deps.db, tenantId, type)) return false;
    const digest = crypto.createHash('sha1').update(`${tenantId}\n${period}`).digest('hex');
    const id = `sched:${type}:${digest.slice(0, 24)}`;
    const created = await store.insertTaskOnce(
      this.deps.db,
      newTaskRow(id, tenantId, type, payload, type),
    );
    if (created) this.queued.emit('task');
    return created;
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
      const name = payload.package;
      if (typeof name !== 'string' || name === '') {
        throw invalid('payload.package', 'is required (vendor/name)');
      }
      if (!PACKAGE_NAME_RE.test(name.toLowerCase())) {
        throw invalid('payload.package', 'must be a package name (vendor/name)');
      }
      const pkg = await findPackageByName(this.deps.db, ctx.tenantId, name.toLowerCase());
      if (!pkg) throw invalid('payload.package', `unknown package ${name}`);
      if (pkg.type === 'artifact') {
        throw invalid('payload.package', 'artifact packages have no repository to sync');
      }
      await assertSyncableAlone(this.deps.db, pkg);
      return (await this.queuePackageSync(pkg, ctx)).row;
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

  /** The `packages.sync_all` handler: a deduplicated sync per non-artifact package. */
  async syncAll(tenantId: string): Promise<{ packages: number; queued: number }> {
    const packages = await this.deps.db
      .selectFrom('packages')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('type', '!=', 'artifact')
      .orderBy('name', 'asc')
      .execute();
    let queued = 0;
    for (const pkg of packages) {
      if ((await this.queuePackageSync(pkg)).created) queued += 1;
    }
    return { packages: packages.length, queued };
  }

  /**
   * The `cleanup` handler: removes customer tokens past their expiry, tasks finished more than
   * FINISHED_TASK_RETENTION_DAYS ago (webhook deliveries and their replay receipts too), and
   * archives no version refers to any more.
   */
  async cleanup(tenantId: string): Promise<{
    expired_tokens: number;
    old_tasks: number;
    old_webhook_deliveries: number;
    orphan_archives: number;
  }> {
    const now = new Date();
    const before = new Date(now.getTime() - FINISHED_TASK_RETENTION_DAYS * 86_400_000);
    const expired_tokens = await store.deleteExpiredCustomerTokens(
      this.deps.db,
      tenantId,
      now.toISOString(),
    );
    const old_tasks = await store.deleteFinishedTasks(this.deps.db, tenantId, before.toISOString());
    const old_webhook_deliveries = await store.deleteOldWebhookRecords(
      this.deps.db,
      tenantId,
      before.toISOString(),
      now.toISOString(),
    );
    const orphan_archives = await this.deleteOrphanArchives(tenantId, now);
    return { expired_tokens, old_tasks, old_webhook_deliveries, orphan_archives };
  }

  /**
   * Archives of versions that were deleted (tags removed, packages deleted). Only files older
   * than an hour go: a running sync writes its archives before the versions that use them.
   */
  private async deleteOrphanArchives(tenantId: string, now: Date): Promise<number> {
    const used = new Set(
      (
        await this.deps.db
          .selectFrom('versions')
          .select('dist_key')
          .where('tenant_id', '=', tenantId)
          .execute()
      ).map((r) => r.dist_key),
    );
    const cutoff = now.getTime() - ORPHAN_ARCHIVE_GRACE_MS;
    let deleted = 0;
    for await (const object of this.deps.storage.list(`${tenantId}/`)) {
      if (used.has(object.key) || object.modifiedAt.getTime() > cutoff) continue;
      await this.deps.storage.delete(object.key);
      deleted += 1;
    }
    return deleted;
  }

  /** Same task, dedupe key and package state as PackageService's sync request. */
  private async queuePackageSync(pkg: PackageRow, auditAs: Ctx | null = null) {
    const queued = await this.enqueueDeduped(
      pkg.tenant_id,
      SYNC_TASK,
      { package_id: pkg.id, package: pkg.name },
      `sync:${pkg.id}`,
      auditAs,
    );
    if (queued.row.status === 'pending') {
      await this.deps.db
        .updateTable('packages')
        .set({ sync_status: 'pending' })
        .where('id', '=', pkg.id)
        .where('sync_status', '!=', 'running')
        .execute();
    }
    return queued;
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

/** Unknown payload fields are rejected like unknown body fields (decisions.md section 3). */
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
