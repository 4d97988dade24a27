import type { Deps } from '../../context.js';
import { ADVISORIES_IMPORT_TASK, CLEANUP_TASK, SYNC_ALL_TASK } from './schema.js';
import type { TaskService } from './service.js';

export interface SchedulerOptions {
  /** Queue `packages.sync_all` this often; 0 turns periodic re-sync off. */
  syncIntervalMinutes: number;
  /** Queue `advisories.import` this often; 0 (or absent) turns it off. */
  advisoryIntervalMinutes?: number;
  /** How often the schedule is checked (default one minute). */
  tickMs?: number;
}

/**
 * Queues periodic work for every active tenant: a re-sync of all packages every
 * `syncIntervalMinutes`, and a cleanup once a day. Each period's task has an id derived from the
 * period, so any number of worker nodes running a scheduler queue it once between them.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;

  constructor(
    private readonly deps: Deps,
    private readonly tasks: TaskService,
    private readonly options: SchedulerOptions,
  ) {}

  start(): void {
    if (this.timer) return;
    const tick = () => {
      if (this.ticking) return;
      this.ticking = this.tick()
        .then(
          () => undefined,
          (err: unknown) =>
            this.deps.log.error({ err }, 'scheduler: failed to queue periodic work'),
        )
        .finally(() => {
          this.ticking = null;
        });
    };
    this.timer = setInterval(tick, this.options.tickMs ?? 60_000);
    this.timer.unref();
    tick();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Waits for a tick in progress (used on shutdown and by tests). */
  async settle(): Promise<void> {
    await this.ticking;
  }

  /** Queues what is due at `now`; returns how many tasks it created. */
  async tick(now = new Date()): Promise<number> {
    const tenants = await this.deps.db
      .selectFrom('tenants')
      .select('id')
      .where('status', '=', 'active')
      .execute();
    const intervalMs = this.options.syncIntervalMinutes * 60_000;
    const day = now.toISOString().slice(0, 10);
    let created = 0;
    for (const { id } of tenants) {
      if (intervalMs > 0) {
        const period = `${this.options.syncIntervalMinutes}m-${Math.floor(now.getTime() / intervalMs)}`;
        if (await this.tasks.enqueueScheduled(id, SYNC_ALL_TASK, period)) created += 1;
      }
      const advisoryMs = (this.options.advisoryIntervalMinutes ?? 0) * 60_000;
      if (advisoryMs > 0) {
        const period = `adv-${this.options.advisoryIntervalMinutes}m-${Math.floor(now.getTime() / advisoryMs)}`;
        if (await this.tasks.enqueueScheduled(id, ADVISORIES_IMPORT_TASK, period)) created += 1;
      }
      if (await this.tasks.enqueueScheduled(id, CLEANUP_TASK, day)) created += 1;
    }
    return created;
  }
}
