import type { Db } from '../../infra/db/connection.js';
import type { Logger } from '../../infra/logger.js';
import * as store from './store.js';

/** How often counted hits are written; a process killed between writes loses at most this much. */
const FLUSH_MS = 1000;

/**
 * Cache hits of proxied metadata, counted in memory and written once a second per tenant: a hit
 * answered by the p2 fast path must cost no database write. `flush` on shutdown writes the rest.
 */
export class ProxyHitCounter {
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly log: Pick<Logger, 'error'>,
  ) {}

  hit(tenantId: string): void {
    this.pending.set(tenantId, (this.pending.get(tenantId) ?? 0) + 1);
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
  }

  /** Writes what was counted so far (also called on shutdown). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = new Map();
    this.flushing = this.flushing.then(async () => {
      for (const [tenantId, hits] of batch) {
        try {
          await store.count(this.db, tenantId, 'metadata_hits', hits);
        } catch (err) {
          this.log.error({ err, tenant: tenantId, hits }, 'proxy hit counts not written');
        }
      }
    });
    return this.flushing;
  }
}
