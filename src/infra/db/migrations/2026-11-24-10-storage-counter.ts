import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * Storage used becomes a stored counter: one `usage_counters` row per tenant (metric `storage`,
 * period `total`), the bytes of its distinct archives, which every transaction that changes
 * version rows recounts. This fills it from the versions stored so far.
 * Frozen: change the schema with a new migration, never by editing this one.
 */
export async function up(db: Db): Promise<void> {
  await db
    .deleteFrom('usage_counters')
    .where('metric', '=', 'storage')
    .where('period', '=', 'total')
    .execute();
  await db
    .insertInto('usage_counters')
    .columns(['tenant_id', 'metric', 'period', 'value'])
    .expression(
      db
        .selectFrom(
          db
            .selectFrom('versions')
            .select(['tenant_id', 'dist_key', 'dist_size'])
            .groupBy(['tenant_id', 'dist_key', 'dist_size'])
            .as('d'),
        )
        .select([
          'd.tenant_id',
          sql.lit('storage').as('metric'),
          sql.lit('total').as('period'),
          (eb) => eb.fn.sum('d.dist_size').as('value'),
        ])
        .groupBy('d.tenant_id'),
    )
    .execute();
}
