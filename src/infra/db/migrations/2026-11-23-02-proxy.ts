import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * The proxy of a public Composer repository. Kept metadata and versions are keyed by a cache
 * tenant (today the tenant itself; the Cloud edition may share one between tenants), while
 * freezes, statistics, alerts and upstream health always belong to one tenant.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('proxy_documents')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    // ok: `entries` holds the expanded versions; missing: the upstream answered 404.
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('entries', 'text', (c) => c.notNull())
    .addColumn('upstream_last_modified', 'varchar(64)')
    .addColumn('checked_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('changed_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('proxy_documents_pk', ['tenant_id', 'name', 'kind'])
    .execute();
  await db.schema
    .createTable('proxy_versions')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('version', 'varchar(255)', (c) => c.notNull())
    .addColumn('version_normalized', 'varchar(255)', (c) => c.notNull())
    .addColumn('reference', 'varchar(255)', (c) => c.notNull())
    .addColumn('dist_url', 'text', (c) => c.notNull())
    .addColumn('shasum', 'varchar(64)')
    .addColumn('archive_key', 'varchar(512)')
    .addColumn('archive_size', 'bigint')
    .addColumn('archived_at', 'varchar(32)')
    .addPrimaryKeyConstraint('proxy_versions_pk', [
      'tenant_id',
      'name',
      'version_normalized',
      'reference',
    ])
    .execute();
  await db.schema
    .createTable('proxy_freezes')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('frozen_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('proxy_freezes_pk', ['tenant_id', 'name'])
    .execute();
  await db.schema
    .createTable('proxy_counters')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('metric', 'varchar(32)', (c) => c.notNull())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('proxy_counters_pk', ['tenant_id', 'day', 'metric'])
    .execute();
  await db.schema
    .createTable('proxy_downloads')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('customer_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('version_normalized', 'varchar(255)', (c) => c.notNull())
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('proxy_downloads_pk', [
      'tenant_id',
      'customer_id',
      'name',
      'version_normalized',
      'day',
    ])
    .execute();
  await db.schema
    .createTable('proxy_health')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('reachable', 'integer', (c) => c.notNull())
    .addColumn('last_success_at', 'varchar(32)')
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', 'varchar(32)')
    .execute();
  await db.schema
    .createTable('proxy_alerts')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('package', 'varchar(255)')
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('proxy_alerts_tenant_created')
    .on('proxy_alerts')
    .columns(['tenant_id', 'created_at'])
    .execute();
}
