import type { Kysely } from 'kysely';

// Frozen in time: typed against Kysely<any>-like shape, never importing app code.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('tenants')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('subdomain', 'varchar(63)', (c) => c.unique())
    .addColumn('plan', 'varchar(32)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('key', 'varchar(100)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('settings_pk', ['tenant_id', 'key'])
    .execute();

  await db.schema
    .createTable('team_tokens')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('level', 'varchar(16)', (c) => c.notNull())
    .addColumn('token_digest', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_used_at', 'varchar(32)')
    .execute();

  await db.schema
    .createTable('customers')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('external_id', 'varchar(255)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('status_reason', 'text')
    .addColumn('access_expires_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('customers_external_uq', ['tenant_id', 'external_id'])
    .execute();
  await db.schema
    .createIndex('customers_tenant_created')
    .on('customers')
    .columns(['tenant_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('customer_tokens')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('customer_id', 'varchar(64)', (c) =>
      c.notNull().references('customers.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('scope', 'varchar(16)', (c) => c.notNull())
    .addColumn('package_scopes', 'text', (c) => c.notNull())
    .addColumn('token_digest', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('expires_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_used_at', 'varchar(32)')
    .execute();
  await db.schema
    .createIndex('customer_tokens_customer')
    .on('customer_tokens')
    .column('customer_id')
    .execute();

  await db.schema
    .createTable('packages')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('repository_url', 'text', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('latest_version', 'varchar(255)')
    .addColumn('default_branch', 'varchar(255)')
    .addColumn('readme', 'text')
    .addColumn('synced_at', 'varchar(32)')
    .addColumn('sync_status', 'varchar(16)', (c) => c.notNull())
    .addColumn('sync_error', 'text')
    .addColumn('sync_skipped', 'text', (c) => c.notNull())
    .addColumn('abandoned', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('packages_name_uq', ['tenant_id', 'name'])
    .execute();

  await db.schema
    .createTable('versions')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('package_id', 'varchar(64)', (c) =>
      c.notNull().references('packages.id').onDelete('cascade'),
    )
    .addColumn('version', 'varchar(255)', (c) => c.notNull())
    .addColumn('version_normalized', 'varchar(255)', (c) => c.notNull())
    .addColumn('is_dev', 'integer', (c) => c.notNull())
    .addColumn('reference', 'varchar(64)', (c) => c.notNull())
    .addColumn('released_at', 'varchar(32)')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('yanked', 'integer', (c) => c.notNull())
    .addColumn('deprecated', 'integer', (c) => c.notNull())
    .addColumn('dist_key', 'text', (c) => c.notNull())
    .addColumn('dist_shasum', 'varchar(40)', (c) => c.notNull())
    .addColumn('dist_size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('versions_uq', ['package_id', 'version_normalized'])
    .execute();

  await db.schema
    .createTable('package_metadata')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('package_id', 'varchar(64)', (c) =>
      c.notNull().references('packages.id').onDelete('cascade'),
    )
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('entries', 'text', (c) => c.notNull())
    .addColumn('last_modified', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('package_metadata_pk', ['package_id', 'kind'])
    .execute();

  await db.schema
    .createTable('grants')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('customer_id', 'varchar(64)', (c) =>
      c.notNull().references('customers.id').onDelete('cascade'),
    )
    .addColumn('package_id', 'varchar(64)', (c) =>
      c.notNull().references('packages.id').onDelete('cascade'),
    )
    .addColumn('constraint', 'varchar(255)', (c) => c.notNull())
    .addColumn('granted_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('grants_pk', ['customer_id', 'package_id'])
    .execute();
  await db.schema.createIndex('grants_package').on('grants').column('package_id').execute();

  await db.schema
    .createTable('frozen_versions')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('customer_id', 'varchar(64)', (c) =>
      c.notNull().references('customers.id').onDelete('cascade'),
    )
    .addColumn('package_id', 'varchar(64)', (c) =>
      c.notNull().references('packages.id').onDelete('cascade'),
    )
    .addColumn('version_normalized', 'varchar(255)', (c) => c.notNull())
    .addPrimaryKeyConstraint('frozen_pk', ['customer_id', 'package_id', 'version_normalized'])
    .execute();

  await db.schema
    .createTable('collections')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('slug', 'varchar(100)', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('collections_slug_uq', ['tenant_id', 'slug'])
    .execute();

  await db.schema
    .createTable('collection_packages')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('collection_id', 'varchar(64)', (c) =>
      c.notNull().references('collections.id').onDelete('cascade'),
    )
    .addColumn('package_id', 'varchar(64)', (c) =>
      c.notNull().references('packages.id').onDelete('cascade'),
    )
    .addColumn('added_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('collection_packages_pk', ['collection_id', 'package_id'])
    .execute();

  await db.schema
    .createTable('collection_grants')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('customer_id', 'varchar(64)', (c) =>
      c.notNull().references('customers.id').onDelete('cascade'),
    )
    .addColumn('collection_id', 'varchar(64)', (c) =>
      c.notNull().references('collections.id').onDelete('cascade'),
    )
    .addColumn('constraint', 'varchar(255)', (c) => c.notNull())
    .addColumn('granted_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('collection_grants_pk', ['customer_id', 'collection_id'])
    .execute();

  await db.schema
    .createTable('tasks')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('result', 'text')
    .addColumn('dedupe_key', 'varchar(255)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('started_at', 'varchar(32)')
    .addColumn('finished_at', 'varchar(32)')
    .addColumn('locked_by', 'varchar(100)')
    .addColumn('lease_expires_at', 'varchar(32)')
    .addColumn('run_after', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('tasks_status_run_after')
    .on('tasks')
    .columns(['status', 'run_after'])
    .execute();
  await db.schema.createIndex('tasks_dedupe').on('tasks').column('dedupe_key').execute();

  await db.schema
    .createTable('downloads')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('customer_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('package_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('version_normalized', 'varchar(255)', (c) => c.notNull())
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('downloads_pk', [
      'tenant_id',
      'customer_id',
      'package_id',
      'version_normalized',
      'day',
    ])
    .execute();

  await db.schema
    .createTable('usage_counters')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('metric', 'varchar(32)', (c) => c.notNull())
    .addColumn('period', 'varchar(16)', (c) => c.notNull())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_counters_pk', ['tenant_id', 'metric', 'period'])
    .execute();

  const now = new Date().toISOString();
  await db
    .insertInto('tenants')
    .values({
      id: 'default',
      name: 'Default',
      subdomain: null,
      plan: 'unlimited',
      status: 'active',
      created_at: now,
      updated_at: now,
    })
    .execute();
}
