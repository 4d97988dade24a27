import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * The access-change stamp beside each tenant's cache generation: the time (ms, whole seconds)
 * every Composer document's Last-Modified is at least, moved past every value served before
 * whenever what a customer may see changes.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .alterTable('cache_generations')
    .addColumn('stamp_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}
