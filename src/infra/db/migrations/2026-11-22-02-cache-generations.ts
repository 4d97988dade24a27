import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/** One counter per tenant that every change visible on the Composer surface increments. */
export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('cache_generations')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('generation', 'bigint', (c) => c.notNull())
    .execute();
}
