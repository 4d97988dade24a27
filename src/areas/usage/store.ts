import type { Insertable } from 'kysely';
import type { Db } from '../../infra/db/connection.js';
import type { DownloadsTable, UsageCountersTable } from '../../infra/db/schema.js';

/** Rows per INSERT, well under SQLite's and PostgreSQL's parameter limits. */
const CHUNK = 500;

/** The tenant's bandwidth counter of one month (`YYYY-MM`), as written so far. */
export function bandwidthCounter(db: Db, tenantId: string, period: string) {
  return db
    .selectFrom('usage_counters')
    .select('value')
    .where('tenant_id', '=', tenantId)
    .where('metric', '=', 'bandwidth')
    .where('period', '=', period)
    .executeTakeFirst();
}

/** Adds download counts and bytes to their daily rows (rows sorted by key: see the caller). */
export async function addDownloads(db: Db, rows: Insertable<DownloadsTable>[]) {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db
      .insertInto('downloads')
      .values(rows.slice(i, i + CHUNK))
      .onConflict((oc) =>
        oc
          .columns(['tenant_id', 'customer_id', 'package_id', 'version_normalized', 'day'])
          .doUpdateSet((eb) => ({
            count: eb('downloads.count', '+', eb.ref('excluded.count')),
            bytes: eb('downloads.bytes', '+', eb.ref('excluded.bytes')),
          })),
      )
      .execute();
  }
}

/** Adds to usage counters (the month's bandwidth), creating them when missing. */
export async function addBandwidth(db: Db, rows: Insertable<UsageCountersTable>[]) {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db
      .insertInto('usage_counters')
      .values(rows.slice(i, i + CHUNK))
      .onConflict((oc) =>
        oc.columns(['tenant_id', 'metric', 'period']).doUpdateSet((eb) => ({
          value: eb('usage_counters.value', '+', eb.ref('excluded.value')),
        })),
      )
      .execute();
  }
}

/**
 * Of these Cloud tenant ids, those not deleted. The tenants table is the platform's own: it
 * carries no tenant_id to pin.
 */
export async function liveTenantIds(db: Db, ids: readonly string[]) {
  const live = await db
    .selectFrom('tenants')
    .select('id')
    .where('id', 'in', [...ids])
    .where('status', '!=', 'deleted')
    .execute();
  return new Set(live.map((r) => r.id));
}
