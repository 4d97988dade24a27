import type { Deps } from '../../context.js';
import type { TaskRow } from './store.js';
import { renewLease } from './store.js';

/** Why a running task was stopped: the worker no longer holds its lease. */
export class LeaseLostError extends Error {
  constructor(
    readonly taskId: string,
    reason: string,
  ) {
    super(`Task ${taskId} stopped: ${reason}`);
    this.name = 'LeaseLostError';
  }
}

/**
 * Keeps a claimed task's lease alive while its handler runs, renewing it every third of the
 * lease. When the lease is lost (another worker took the task after it ran out) or cannot be
 * renewed before it runs out (the database is unreachable), `signal` aborts, so the handler
 * stops instead of running on beside the worker that takes the task over.
 */
export class LeaseKeeper {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  /** When the lease this worker last wrote runs out (ms since the epoch). */
  private expiresAt: number;
  private renewing = false;

  constructor(
    private readonly deps: Pick<Deps, 'db' | 'log'>,
    private readonly task: TaskRow,
    private readonly workerId: string,
    private readonly leaseMs: number,
  ) {
    this.expiresAt = Date.parse(task.lease_expires_at ?? '') || Date.now() + leaseMs;
    this.timer = setInterval(() => void this.renew(), Math.max(1, Math.floor(leaseMs / 3)));
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private get context() {
    return {
      task: this.task.id,
      type: this.task.type,
      tenant: this.task.tenant_id,
      worker: this.workerId,
    };
  }

  private abort(reason: string): void {
    this.stop();
    if (!this.controller.signal.aborted) {
      this.controller.abort(new LeaseLostError(this.task.id, reason));
    }
  }

  private async renew(): Promise<void> {
    if (this.renewing || this.controller.signal.aborted) return;
    this.renewing = true;
    const until = Date.now() + this.leaseMs;
    try {
      const renewed = await renewLease(
        this.deps.db,
        this.task.id,
        this.workerId,
        new Date(until).toISOString(),
      );
      if (renewed) {
        this.expiresAt = until;
      } else {
        this.deps.log.error(this.context, 'task lease lost to another worker; stopping the task');
        this.abort('its lease was taken over by another worker');
      }
    } catch (err) {
      // One failed renewal is retried at the next tick while the lease still holds; once the
      // lease would run out before then, the task stops (another worker may claim it).
      const nextTick = Date.now() + this.leaseMs / 3;
      const expired = nextTick >= this.expiresAt;
      this.deps.log.error(
        { ...this.context, err, lease_expires_at: new Date(this.expiresAt).toISOString() },
        expired
          ? 'task lease renewal failed and the lease runs out; stopping the task'
          : 'task lease renewal failed; retrying',
      );
      if (expired) this.abort('its lease could not be renewed');
    } finally {
      this.renewing = false;
    }
  }
}
