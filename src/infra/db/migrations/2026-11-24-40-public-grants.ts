import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * `public_grants`: with PROXY_VISIBILITY=granted, a customer sees a public (proxied) package only
 * when granted it by name, with a constraint like a private grant. Public names have no packages
 * row, so these grants have a table of their own. Frozen.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('public_grants')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('customer_id', 'varchar(64)', (c) =>
      c.notNull().references('customers.id').onDelete('cascade'),
    )
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('constraint', 'varchar(255)', (c) => c.notNull())
    .addColumn('granted_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('public_grants_pk', ['customer_id', 'name'])
    .execute();
  await db.schema
    .createIndex('public_grants_tenant_name')
    .on('public_grants')
    .columns(['tenant_id', 'name'])
    .execute();
}
