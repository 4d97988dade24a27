import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * Monorepos: a parent package declares folder globs (`monorepos`), and each child package found
 * under them is linked to its parent (`monorepo_children`). Frozen: change the schema with a new
 * migration, never by editing this one.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('monorepos')
    .addColumn('package_id', 'varchar(64)', (c) =>
      c.primaryKey().references('packages.id').onDelete('cascade'),
    )
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('paths', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('monorepo_children')
    .addColumn('package_id', 'varchar(64)', (c) =>
      c.primaryKey().references('packages.id').onDelete('cascade'),
    )
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('parent_id', 'varchar(64)', (c) =>
      c.notNull().references('packages.id').onDelete('cascade'),
    )
    .addColumn('path', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('monorepo_children_parent_idx')
    .on('monorepo_children')
    .columns(['parent_id'])
    .execute();
}
