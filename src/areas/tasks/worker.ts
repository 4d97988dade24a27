import os from 'node:os';
import type { Deps } from '../../context.js';
import { nowIso } from '../../context.js';
import { newId } from '../../infra/crypto.js';
import type { TaskService } from './service.js';
import { claimNextTask } from './store.js';
import type { TaskRow } from './store.js';

/** Runs one task; its return value is stored as the task's result. */
export type TaskHandler = (task: TaskRow, payload: Record<string, unknown>) => Promise<unknown>;

const LEASE_MS = 60_000;
const POLL_MS = 1_000;

/**
 * Claims tasks from the database and runs them one at a time. Any number of workers, in this
 * process or others, may run against the same database.
 */
export class Worker {
  readonly id = `${os.hostname()}:${process.pid}:${newId().slice(0, 8)}`;
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private readonly onQueued = () => this.wake?.();

  constructor(
    private readonly deps: Deps,
    private readonly tasks: TaskService,
    private readonly handlers: Record<string, TaskHandler>,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.tasks.queued.on('task', this.onQueued);
    this.loop = this.run();
  }

  async stop(): Promise<void> {
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
        console.error('worker: failed to claim a task', err);
      }
      if (!worked && this.running) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, POLL_MS);
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
      new Date(now.getTime() + LEASE_MS).toISOString(),
    );
    if (!task) return false;
    const renew = setInterval(() => {
      void this.deps.db
        .updateTable('tasks')
        .set({ lease_expires_at: new Date(Date.now() + LEASE_MS).toISOString() })
        .where('id', '=', task.id)
        .where('locked_by', '=', this.id)
        .execute()
        .catch(() => undefined);
    }, LEASE_MS / 3);
    try {
      const handler = this.handlers[task.type];
      if (!handler) throw new Error(`No handler for task type "${task.type}"`);
      const result = await handler(task, JSON.parse(task.payload) as Record<string, unknown>);
      await this.finish(task, 'done', null, result ?? null);
    } catch (err) {
      await this.finish(task, 'failed', err instanceof Error ? err.message : String(err), null);
    } finally {
      clearInterval(renew);
    }
    return true;
  }

  private async finish(task: TaskRow, status: string, error: string | null, result: unknown) {
    await this.deps.db
      .updateTable('tasks')
      .set({
        status,
        error,
        result: result === null ? null : JSON.stringify(result),
        finished_at: nowIso(),
        locked_by: null,
        lease_expires_at: null,
      })
      .where('id', '=', task.id)
      .where('locked_by', '=', this.id)
      .execute();
  }
}
