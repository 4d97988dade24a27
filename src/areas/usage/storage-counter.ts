import type { Db } from '../../infra/db/connection.js';

/**
 * Storage used is a stored counter (one `usage_counters` row per tenant), so a download reads one
 * row instead of scanning the tenant's versions. Every transaction that adds, changes or removes
 * version rows recounts it before it commits (`recountStorage`), so the counter always equals
 * the scan of what is committed.
 */
export const STORAGE_METRIC = 'storage';
/** Storage is not per month: the counter's period is this constant. */
export const STORAGE_PERIOD = 'total';

/**
 * Bytes of the tenant's stored archives, each distinct archive counted once (the scan): an
 * archive is a key, or a slice of an archive pack (key and offset, docs/composer.md).
 */
export async function scanStorageUsed(db: Db, tenantId: string): Promise<number> {
  const row = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('versions')
        .select(['dist_key', 'dist_offset', 'dist_size'])
        .where('tenant_id', '=', tenantId)
        .groupBy(['dist_key', 'dist_offset', 'dist_size'])
        .as('d'),
    )
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('d.dist_size'), eb.lit(0)).as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The stored counter: bytes of the tenant's archives as of the last committed change. */
export async function storedStorageUsed(db: Db, tenantId: string): Promise<number> {
  const row = await db
    .selectFrom('usage_counters')
    .select('value')
    .where('tenant_id', '=', tenantId)
    .where('metric', '=', STORAGE_METRIC)
    .where('period', '=', STORAGE_PERIOD)
    .executeTakeFirst();
  return Number(row?.value ?? 0);
}

/**
 * Sets the counter to the scan, inside the transaction `trx` that changed version rows; call it
 * after the last write to `versions`. The counter row is locked first, so on PostgreSQL two
 * transactions recount one after the other and the second one's scan sees the first one's
 * committed rows (each statement of READ COMMITTED reads a fresh snapshot); SQLite has one
 * writer at a time anyway.
 */
export async function recountStorage(trx: Db, tenantId: string): Promise<void> {
  await trx
    .insertInto('usage_counters')
    .values({ tenant_id: tenantId, metric: STORAGE_METRIC, period: STORAGE_PERIOD, value: 0 })
    .onConflict((oc) =>
      oc
        .columns(['tenant_id', 'metric', 'period'])
        .doUpdateSet((eb) => ({ value: eb.ref('usage_counters.value') })),
    )
    .execute();
  const used = await scanStorageUsed(trx, tenantId);
  await trx
    .updateTable('usage_counters')
    .set({ value: used })
    .where('tenant_id', '=', tenantId)
    .where('metric', '=', STORAGE_METRIC)
    .where('period', '=', STORAGE_PERIOD)
    .execute();
}
