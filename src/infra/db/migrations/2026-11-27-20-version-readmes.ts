import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * The README of each version: `versions.readme_blob` is the blob id of the README in the
 * version's tree ('' when it has none; null for versions synced before this column, which show
 * the package's default-branch README instead), and `package_readmes` holds each distinct README
 * blob of a package once. Deleting a package deletes its READMEs (cascade). Frozen: change the
 * schema with a new migration, never by editing this one.
 */
export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('versions').addColumn('readme_blob', 'varchar(64)').execute();
  await db.schema
    .createTable('package_readmes')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('package_id', 'varchar(64)', (c) =>
      c.notNull().references('packages.id').onDelete('cascade'),
    )
    .addColumn('blob_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('package_readmes_pk', ['tenant_id', 'package_id', 'blob_id'])
    .execute();
}
