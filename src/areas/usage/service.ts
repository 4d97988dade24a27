import type { Deps } from '../../context.js';
import { AppError } from '../../errors.js';
import type { Db } from '../../infra/db/connection.js';
import { DEFAULT_TENANT_ID } from '../../infra/db/schema.js';
import { TenantLimitsCache } from './limits.js';
import * as store from './store.js';
import { raiseUsageNotifications } from './notifications.js';
import { assertStorageLeft, storageUsed } from './storage-limit.js';

export interface UsageFigures {
  bandwidthUsed: number;
  bandwidthLimit: number;
  storageUsed: number;
  storageLimit: number;
}

/** One buffered `downloads` increment. */
interface DownloadIncrement {
  tenant_id: string;
  customer_id: string;
  package_id: string;
  version_normalized: string;
  day: string;
  count: number;
  bytes: number;
}

/** What one flush writes: downloads increments and bandwidth bytes per tenant and month. */
interface Batch {
  downloads: Map<string, DownloadIncrement>;
  bandwidth: Map<string, { tenant_id: string; period: string; value: number }>;
}

const month = (d = new Date()) => d.toISOString().slice(0, 7);
const emptyBatch = (): Batch => ({ downloads: new Map(), bandwidth: new Map() });
const isEmpty = (b: Batch) => b.downloads.size === 0 && b.bandwidth.size === 0;

export { StorageLimitError, assertStorageLeft, storageUsed } from './storage-limit.js';

/** Rows per multi-row upsert statement (SQLite limits bound parameters per statement). */

/**
 * Monthly bandwidth and stored archive bytes behind the X-Bandwidth-* and X-Storage-* headers,
 * and the download counts behind the statistics.
 *
 * A download is committed before its archive is sent (docs/deployment.md: a served archive is counted
 * even when its node dies right after), by group commit: `recordDownload` adds to an in-memory
 * batch and resolves once the batch is written; every download recorded while one write runs
 * shares the next write, so under load one transaction carries many downloads. Worst case when a
 * node dies: downloads committed whose archive had not fully reached the client are counted (the
 * client retries and is counted again); a served archive is never missing from the counts.
 */
export class UsageService {
  private pending: Batch = emptyBatch();
  /** The batch being written by the running flush, still counted by `figures()`. */
  private inflight: Batch = emptyBatch();
  /** Flushes run one after another; this is the tail of that chain. */
  private chain: Promise<void> = Promise.resolve();
  /** Moves each time a batch is committed, so figures() can tell a read raced a commit. */
  private commits = 0;
  /** The write the next recorded download waits for, while not yet started. */
  private next: Promise<void> | null = null;
  /** Notification checks started after commits, awaited by flush(). */
  private readonly checks = new Set<Promise<void>>();
  /** Each tenant's limits: its Cloud plan's, else the environment's. */
  readonly limits: TenantLimitsCache;

  constructor(private readonly deps: Deps) {
    this.limits = new TenantLimitsCache(deps);
  }

  async figures(tenantId: string): Promise<UsageFigures> {
    const db = this.deps.db;
    const period = month();
    const readBandwidth = async (): Promise<number> => {
      // A commit between the read and adding the unwritten bytes would count them twice or not
      // at all; read again in that (rare) case.
      for (;;) {
        const seen = this.commits;
        const row = await store.bandwidthCounter(db, tenantId, period);
        if (seen === this.commits) {
          return Number(row?.value ?? 0) + this.unwrittenBandwidth(tenantId, period);
        }
      }
    };
    const [bandwidthUsed, storage, limits] = await Promise.all([
      readBandwidth(),
      storageUsed(this.deps, tenantId),
      this.limits.archive(tenantId),
    ]);
    return {
      bandwidthUsed,
      bandwidthLimit: limits.bandwidth,
      storageUsed: storage,
      storageLimit: limits.storage,
    };
  }

  /** Bytes of the tenant's stored archives, each distinct archive counted once. */
  storageUsed(tenantId: string): Promise<number> {
    return storageUsed(this.deps, tenantId);
  }

  /** See the function `assertStorageLeft`. */
  assertStorageLeft(tenantId: string, extraBytes = 0): Promise<void> {
    return assertStorageLeft(this.deps, tenantId, extraBytes);
  }

  /** 429 once a non-zero monthly bandwidth limit is used up. */
  assertBandwidthLeft(figures: UsageFigures): void {
    if (figures.bandwidthLimit > 0 && figures.bandwidthUsed >= figures.bandwidthLimit) {
      throw new AppError('RATE_LIMITED', 'Monthly bandwidth limit reached');
    }
  }

  /**
   * Counts one archive about to be served per customer, package, version and day, and its bytes.
   * Resolves once committed; when the write fails it rejects and the download is not counted (the
   * caller must not serve the archive then).
   */
  recordDownload(
    tenantId: string,
    customerId: string,
    packageId: string,
    normalized: string,
    bytes: number,
  ): Promise<void> {
    const now = new Date();
    const day = now.toISOString().slice(0, 10);
    const key = [tenantId, customerId, packageId, normalized, day].join('\0');
    const row = this.pending.downloads.get(key);
    if (row) {
      row.count += 1;
      row.bytes += bytes;
    } else {
      this.pending.downloads.set(key, {
        tenant_id: tenantId,
        customer_id: customerId,
        package_id: packageId,
        version_normalized: normalized,
        day,
        count: 1,
        bytes,
      });
    }
    return this.recordBandwidth(tenantId, bytes, now);
  }

  /** Counts bytes of an archive served outside the package statistics (a proxied one). */
  recordBandwidth(tenantId: string, bytes: number, now = new Date()): Promise<void> {
    const period = month(now);
    const bwKey = `${tenantId}\0${period}`;
    const bw = this.pending.bandwidth.get(bwKey);
    if (bw) bw.value += bytes;
    else this.pending.bandwidth.set(bwKey, { tenant_id: tenantId, period, value: bytes });
    this.next ??= this.chain.then(() => {
      this.next = null;
      return this.writePending();
    });
    const run = this.next;
    this.chain = run.catch(() => undefined);
    return run;
  }

  /**
   * Resolves once every download recorded before the call is written (or has failed), and the
   * plan notifications those writes earned are raised.
   */
  async flush(): Promise<void> {
    await this.chain;
    await Promise.all([...this.checks]);
  }

  /** Waits for writes in progress; call before the database is closed. */
  async close(): Promise<void> {
    await this.flush();
  }

  private unwrittenBandwidth(tenantId: string, period: string): number {
    const key = `${tenantId}\0${period}`;
    return (
      (this.pending.bandwidth.get(key)?.value ?? 0) + (this.inflight.bandwidth.get(key)?.value ?? 0)
    );
  }

  /** Writes the batch of downloads recorded so far; on failure they are dropped, not served. */
  private async writePending(): Promise<void> {
    if (isEmpty(this.pending)) return;
    const batch = this.pending;
    this.pending = emptyBatch();
    this.inflight = batch;
    try {
      await this.write(batch);
      this.commits += 1;
    } finally {
      this.inflight = emptyBatch();
    }
    if (this.deps.config.edition === 'cloud') {
      // Not awaited: a download waits for its count, not for the plan's notifications.
      const tenants = new Set([...batch.bandwidth.values()].map((b) => b.tenant_id));
      for (const tenantId of tenants) {
        // The plan as this node knows it (1 s), and nothing more to read for an unlimited one.
        const check = this.limits
          .plan(tenantId)
          .then((plan) =>
            plan?.bandwidth_bytes
              ? raiseUsageNotifications(this.deps, tenantId, ['bandwidth_bytes'], plan)
              : undefined,
          )
          .catch((err: unknown) => {
            this.deps.log.error({ err, tenant: tenantId }, 'usage notifications check failed');
          });
        this.checks.add(check);
        void check.finally(() => this.checks.delete(check));
      }
    }
  }

  private async write(batch: Batch): Promise<void> {
    // Sorted by key, so concurrent flushes of several nodes lock rows in one order (no deadlock).
    const sorted = <T>(m: Map<string, T>) =>
      [...m.entries()].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([, v]) => v);
    let downloads = sorted(batch.downloads);
    let bandwidth = sorted(batch.bandwidth).map((b) => ({
      tenant_id: b.tenant_id,
      metric: 'bandwidth',
      period: b.period,
      value: b.value,
    }));
    await this.deps.db.transaction().execute(async (trx) => {
      // A deleted Cloud tenant's rows are being removed: its last downloads are not written back.
      const gone = await this.deletedTenants(trx, [
        ...new Set([...downloads, ...bandwidth].map((r) => r.tenant_id)),
      ]);
      if (gone.size > 0) {
        downloads = downloads.filter((d) => !gone.has(d.tenant_id));
        bandwidth = bandwidth.filter((b) => !gone.has(b.tenant_id));
      }
      await store.addDownloads(trx, downloads);
      await store.addBandwidth(trx, bandwidth);
    });
  }

  /** Of `tenantIds`, the Cloud tenants deleted (or already removed) as of now. */
  private async deletedTenants(trx: Db, tenantIds: string[]): Promise<Set<string>> {
    const ids = tenantIds.filter((id) => id !== DEFAULT_TENANT_ID);
    if (this.deps.config.edition !== 'cloud' || ids.length === 0) return new Set();
    const alive = await store.liveTenantIds(trx, ids);
    return new Set(ids.filter((id) => !alive.has(id)));
  }
}
