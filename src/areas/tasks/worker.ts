import os from 'node:os';
import type { Deps } from '../../context.js';
import { nowIso } from '../../context.js';
import { newId } from '../../infra/crypto.js';
import { DEFAULT_MAX_ATTEMPTS } from './presenter.js';
import type { Scheduler } from './scheduler.js';
import type { TaskService } from './service.js';
import { claimNextTask } from './store.js';
import type { TaskRow } from './store.js';
import { removeStaleTempDirs } from '../../infra/git/stale-temp.js';
import { runWithSignal } from '../../infra/abort.js';
import { runAsAttempt } from '../../infra/task-attempt.js';
import { LeaseKeeper } from './lease.js';

/** Temp folders untouched this long belong to no running sync (syncs write as they go). */
const STALE_TEMP_MS = 60 * 60 * 1000;

/** What a handler is told besides its task: `signal` aborts once the worker lost its lease. */
export interface TaskRun {
  /**
   * Aborted when the lease can no longer be renewed (another worker took the task, or renewals
   * kept failing until it ran out): the handler must stop at its next checkpoint and not commit.
   * Git commands started while it runs are killed (runWithSignal).
   */
  signal: AbortSignal;
}

/** Runs one task; its return value is stored as the task's result. */
export type TaskHandler = (
  task: TaskRow,
  payload: Record<string, unknown>,
  run: TaskRun,
) => Promise<unknown>;

/** A handler with its retry limit: a failed attempt below the limit is tried again later. */
export interface TaskDefinition {
  run: TaskHandler;
  /** Attempts in all, the first included (default DEFAULT_MAX_ATTEMPTS). */
  maxAttempts?: number;
}

export interface WorkerOptions {
  /** How long a claim holds before another worker may take the task (default 60 s). */
  leaseMs?: number;
  /** Sleep between polls of an empty queue (default 1 s); queuing in-process wakes it early. */
  pollMs?: number;
  /** Retry n waits 2^(n-1) × this (default 30 s): 30 s, 60 s, 120 s, … */
  backoffBaseMs?: number;
  /** Started and stopped with the worker: queues periodic work. */
  scheduler?: Scheduler;
}

/**
 * Claims tasks from the database and runs them one at a time. Any number of workers, in this
 * process or others, may run against the same database.
 */
export class Worker {
  readonly id = `${os.hostname()}:${process.pid}:${newId().slice(0, 8)}`;
  readonly definitions: Readonly<Record<string, TaskDefinition>>;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly backoffBaseMs: number;
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private readonly onQueued = () => this.wake?.();

  constructor(
    private readonly deps: Deps,
    private readonly tasks: TaskService,
    handlers: Record<string, TaskHandler | TaskDefinition>,
    private readonly options: WorkerOptions = {},
  ) {
    this.definitions = Object.fromEntries(
      Object.entries(handlers).map(([type, h]) => [type, typeof h === 'function' ? { run: h } : h]),
    );
    this.leaseMs = options.leaseMs ?? 60_000;
    this.pollMs = options.pollMs ?? 1_000;
    this.backoffBaseMs = options.backoffBaseMs ?? 30_000;
  }

  /** The attempt limit of a task type. */
  maxAttempts(type: string): number {
    return this.definitions[type]?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  }

  /** A sync killed mid-way cannot clean its temp folders; the next worker start does. */
  private removeCrashedSyncLeftovers(): void {
    removeStaleTempDirs({ dataDir: this.deps.config.dataDir, olderThanMs: STALE_TEMP_MS })
      .then((removed) => {
        if (removed.length > 0) {
          this.deps.log.info({ removed }, 'worker: removed temp folders left by crashed syncs');
        }
      })
      .catch((err: unknown) =>
        this.deps.log.warn({ err }, 'worker: could not remove stale temp folders'),
      );
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.removeCrashedSyncLeftovers();
    this.tasks.queued.on('task', this.onQueued);
    this.loop = this.run();
    this.options.scheduler?.start();
  }

  async stop(): Promise<void> {
    this.options.scheduler?.stop();
    await this.options.scheduler?.settle();
    this.running = false;
    this.tasks.queued.off('task', this.onQueued);
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let worked = false;
      try {
        worked = await this.runNext();
      } catch (err) {
        this.deps.log.error({ err }, 'worker: failed to claim a task');
      }
      if (!worked && this.running) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.pollMs);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = null;
      }
    }
  }

  /** Claims and runs one task; false when there was nothing to do. */
  async runNext(): Promise<boolean> {
    const now = new Date();
    const task = await claimNextTask(
      this.deps.db,
      this.deps.dialect,
      this.id,
      now.toISOString(),
      new Date(now.getTime() + this.leaseMs).toISOString(),
    );
    if (!task) return false;
    const lease = new LeaseKeeper(this.deps, task, this.id, this.leaseMs);
    try {
      const definition = this.definitions[task.type];
      if (!definition) throw new Error(`No handler for task type "${task.type}"`);
      const payload = JSON.parse(task.payload) as Record<string, unknown>;
      // What the handler starts sees the lease's signal, and whether a failure is tried again.
      const attempt = {
        taskId: task.id,
        attempt: task.attempts,
        maxAttempts: this.maxAttempts(task.type),
      };
      const result = await runWithSignal(lease.signal, () =>
        runAsAttempt(attempt, () => definition.run(task, payload, { signal: lease.signal })),
      );
      lease.signal.throwIfAborted();
      await this.finish(task, result ?? null);
    } catch (err) {
      if (lease.signal.aborted) {
        // The attempt stopped because the lease went: record it only if this worker still
        // holds the task (a worker that took it over owns its outcome now).
        this.deps.log.warn(
          { task: task.id, type: task.type, tenant: task.tenant_id, worker: this.id, err },
          'task stopped: its lease could not be renewed',
        );
      }
      await this.fail(task, err instanceof Error ? err.message : String(err));
    } finally {
      lease.stop();
    }
    return true;
  }

  private async finish(task: TaskRow, result: unknown) {
    await this.deps.db
      .updateTable('tasks')
      .set({
        status: 'done',
        error: null,
        result: result === null ? null : JSON.stringify(result),
        finished_at: nowIso(),
        locked_by: null,
        lease_expires_at: null,
      })
      .where('tenant_id', '=', task.tenant_id)
      .where('id', '=', task.id)
      .where('locked_by', '=', this.id)
      .execute();
  }

  /**
   * A failed attempt below the type's limit goes back to pending after a backoff, keeping its
   * error and dedupe key (so no second task for the same work is queued meanwhile); the last
   * attempt leaves the task failed.
   */
  private async fail(task: TaskRow, error: string) {
    const retry = task.attempts < this.maxAttempts(task.type);
    const now = Date.now();
    const backoff = this.backoffBaseMs * 2 ** Math.max(0, task.attempts - 1);
    await this.deps.db
      .updateTable('tasks')
      .set(
        retry
          ? {
              status: 'pending',
              error,
              run_after: new Date(now + backoff).toISOString(),
              finished_at: null,
              locked_by: null,
              lease_expires_at: null,
            }
          : {
              status: 'failed',
              error,
              finished_at: new Date(now).toISOString(),
              locked_by: null,
              lease_expires_at: null,
            },
      )
      .where('tenant_id', '=', task.tenant_id)
      .where('id', '=', task.id)
      .where('locked_by', '=', this.id)
      .execute();
  }
}
