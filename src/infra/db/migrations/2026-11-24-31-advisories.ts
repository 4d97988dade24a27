import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * Security advisories (docs/advisories.md). Every row is tenant-bound: imported public advisories are
 * stored per tenant like everything else (a Cloud tenant's store never reads another tenant's
 * rows); docs/advisories.md says so. `advisories` holds the merged advisory, `advisory_sources`
 * each source record it was merged from (with the record's digest, so an unchanged record costs
 * nothing), `advisory_fingerprints` each source's last imported content identity, and
 * `vulnerability_matches` which held versions each advisory affects.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('advisories')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    // PKYD-YYYY-NNNN, unique per tenant.
    .addColumn('advisory_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('package_name', 'varchar(255)', (c) => c.notNull())
    // vendor: written through the admin API; imported: merged from the sources.
    .addColumn('origin', 'varchar(16)', (c) => c.notNull())
    .addColumn('remote_id', 'varchar(512)', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('link', 'text')
    .addColumn('cve', 'varchar(64)')
    // JSON array of every id of the vulnerability (CVE, GHSA, OSV ids): what records merge on.
    .addColumn('aliases', 'text', (c) => c.notNull())
    .addColumn('affected_versions', 'text', (c) => c.notNull())
    .addColumn('severity', 'varchar(16)')
    .addColumn('description', 'text')
    .addColumn('reported_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('advisories_tenant_advisory_id')
    .on('advisories')
    .columns(['tenant_id', 'advisory_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('advisories_tenant_package')
    .on('advisories')
    .columns(['tenant_id', 'package_name'])
    .execute();
  await db.schema
    .createTable('advisory_sources')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('source', 'varchar(32)', (c) => c.notNull())
    .addColumn('remote_id', 'varchar(512)', (c) => c.notNull())
    .addColumn('advisory_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('digest', 'varchar(64)', (c) => c.notNull())
    // The record as the source gave it (JSON), so a merged advisory can be recomputed.
    .addColumn('record', 'text', (c) => c.notNull())
    .addColumn('imported_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('advisory_sources_pk', ['tenant_id', 'source', 'remote_id'])
    .execute();
  await db.schema
    .createIndex('advisory_sources_advisory')
    .on('advisory_sources')
    .columns(['tenant_id', 'advisory_id'])
    .execute();
  await db.schema
    .createTable('advisory_fingerprints')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('source', 'varchar(32)', (c) => c.notNull())
    .addColumn('fingerprint', 'varchar(255)', (c) => c.notNull())
    .addColumn('imported_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('advisory_fingerprints_pk', ['tenant_id', 'source'])
    .execute();
  await db.schema
    .createTable('vulnerability_matches')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('advisory_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('package_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('version_normalized', 'varchar(255)', (c) => c.notNull())
    .addColumn('version', 'varchar(255)', (c) => c.notNull())
    // private: a synced or uploaded version; proxy: one in the proxy's kept metadata.
    .addColumn('origin', 'varchar(16)', (c) => c.notNull())
    .addColumn('detected_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('vulnerability_matches_pk', [
      'tenant_id',
      'advisory_id',
      'version_normalized',
    ])
    .execute();
  await db.schema
    .createIndex('vulnerability_matches_package')
    .on('vulnerability_matches')
    .columns(['tenant_id', 'package_name'])
    .execute();
}
