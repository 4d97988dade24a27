import type { Deps } from '../context.js';
import { AppError } from '../errors.js';

export interface UsageFigures {
  bandwidthUsed: number;
  bandwidthLimit: number;
  storageUsed: number;
  storageLimit: number;
}

const month = (d = new Date()) => d.toISOString().slice(0, 7);

/** Monthly bandwidth and stored archive bytes behind the X-Bandwidth-* and X-Storage-* headers. */
export class UsageService {
  constructor(private readonly deps: Deps) {}

  async figures(tenantId: string): Promise<UsageFigures> {
    const db = this.deps.db;
    const [bandwidth, storage] = await Promise.all([
      db
        .selectFrom('usage_counters')
        .select('value')
        .where('tenant_id', '=', tenantId)
        .where('metric', '=', 'bandwidth')
        .where('period', '=', month())
        .executeTakeFirst(),
      db
        .selectFrom((eb) =>
          eb
            .selectFrom('versions')
            .select(['dist_key', 'dist_size'])
            .where('tenant_id', '=', tenantId)
            .groupBy(['dist_key', 'dist_size'])
            .as('d'),
        )
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('d.dist_size'), eb.lit(0)).as('n'))
        .executeTakeFirst(),
    ]);
    return {
      bandwidthUsed: Number(bandwidth?.value ?? 0),
      bandwidthLimit: this.deps.config.bandwidthLimitBytes,
      storageUsed: Number(storage?.n ?? 0),
      storageLimit: this.deps.config.storageLimitBytes,
    };
  }

  /** 429 once a non-zero monthly bandwidth limit is used up. */
  assertBandwidthLeft(figures: UsageFigures): void {
    if (figures.bandwidthLimit > 0 && figures.bandwidthUsed >= figures.bandwidthLimit) {
      throw new AppError('RATE_LIMITED', 'Monthly bandwidth limit reached');
    }
  }

  /** Counts one served archive per customer, package, version and day, and its bytes. */
  async recordDownload(
    tenantId: string,
    customerId: string,
    packageId: string,
    normalized: string,
    bytes: number,
  ): Promise<void> {
    const day = new Date().toISOString().slice(0, 10);
    await this.deps.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('downloads')
        .values({
          tenant_id: tenantId,
          customer_id: customerId,
          package_id: packageId,
          version_normalized: normalized,
          day,
          count: 1,
          bytes,
        })
        .onConflict((oc) =>
          oc
            .columns(['tenant_id', 'customer_id', 'package_id', 'version_normalized', 'day'])
            .doUpdateSet((eb) => ({
              count: eb('downloads.count', '+', 1),
              bytes: eb('downloads.bytes', '+', bytes),
            })),
        )
        .execute();
      await trx
        .insertInto('usage_counters')
        .values({ tenant_id: tenantId, metric: 'bandwidth', period: month(), value: bytes })
        .onConflict((oc) =>
          oc
            .columns(['tenant_id', 'metric', 'period'])
            .doUpdateSet((eb) => ({ value: eb('usage_counters.value', '+', bytes) })),
        )
        .execute();
    });
  }
}
