import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * Per-package invalidation (a new advisory changes exactly its package's p2 documents):
 * `package_stamps` holds each changed package's generation and Last-Modified stamp, with the
 * tenant's `package_seq` at its last change so nodes read only what changed since they last
 * looked. `cache_generations.floor_ms` is the highest package stamp, so the tenant's own stamp
 * always moves past it. Frozen: change the schema with a new migration, never by editing this one.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('package_stamps')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('generation', 'bigint', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('stamp_ms', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('package_stamps_pk', ['tenant_id', 'name'])
    .execute();
  await db.schema
    .createIndex('package_stamps_tenant_seq')
    .on('package_stamps')
    .columns(['tenant_id', 'seq'])
    .execute();
  await db.schema
    .alterTable('cache_generations')
    .addColumn('floor_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('cache_generations')
    .addColumn('package_seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}
