import type { Db } from '../../infra/db/connection.js';
import type { ProxyDocumentsTable, ProxyVersionsTable } from '../../infra/db/schema.js';
import type { Selectable } from 'kysely';

export type DocumentRow = Selectable<ProxyDocumentsTable>;
export type ProxyVersionRow = Selectable<ProxyVersionsTable>;
export type ProxyKind = 'tags' | 'dev';

/** The counters of GET /proxy/stats, one row per tenant, day and metric. */
export const COUNTERS = [
  'metadata_hits',
  'metadata_misses',
  'stale_served',
  'archive_hits',
  'archive_misses',
  'upstream_errors',
  'bytes_from_upstream',
  'bytes_served',
] as const;
export type Counter = (typeof COUNTERS)[number];

const today = () => new Date().toISOString().slice(0, 10);

export function findDocument(db: Db, tenantId: string, name: string, kind: ProxyKind) {
  return db
    .selectFrom('proxy_documents')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('name', '=', name)
    .where('kind', '=', kind)
    .executeTakeFirst();
}

export async function saveDocument(db: Db, row: DocumentRow): Promise<void> {
  await db
    .insertInto('proxy_documents')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'name', 'kind']).doUpdateSet({
        status: row.status,
        entries: row.entries,
        upstream_last_modified: row.upstream_last_modified,
        checked_at: row.checked_at,
        changed_at: row.changed_at,
      }),
    )
    .execute();
}

export async function touchDocument(
  db: Db,
  tenantId: string,
  name: string,
  kind: ProxyKind,
  checkedAt: string,
): Promise<void> {
  await db
    .updateTable('proxy_documents')
    .set({ checked_at: checkedAt })
    .where('tenant_id', '=', tenantId)
    .where('name', '=', name)
    .where('kind', '=', kind)
    .execute();
}

/** Records the versions a document holds; archives already fetched stay as they are. */
export async function keepVersions(
  db: Db,
  rows: Omit<ProxyVersionRow, 'archive_key' | 'archive_size' | 'archived_at'>[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) {
    const chunk = rows.slice(i, i + 200).map((r) => ({
      ...r,
      archive_key: null,
      archive_size: null,
      archived_at: null,
    }));
    await db
      .insertInto('proxy_versions')
      .values(chunk)
      .onConflict((oc) =>
        oc.columns(['tenant_id', 'name', 'version_normalized', 'reference']).doUpdateSet((eb) => ({
          version: eb.ref('excluded.version'),
          dist_url: eb.ref('excluded.dist_url'),
          shasum: eb.ref('excluded.shasum'),
        })),
      )
      .execute();
  }
}

export function findVersion(
  db: Db,
  tenantId: string,
  name: string,
  normalized: string,
  reference: string,
) {
  return db
    .selectFrom('proxy_versions')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('name', '=', name)
    .where('version_normalized', '=', normalized)
    .where('reference', '=', reference)
    .executeTakeFirst();
}

export async function setArchive(
  db: Db,
  row: ProxyVersionRow,
  key: string,
  size: number,
): Promise<void> {
  await db
    .updateTable('proxy_versions')
    .set({ archive_key: key, archive_size: size, archived_at: new Date().toISOString() })
    .where('tenant_id', '=', row.tenant_id)
    .where('name', '=', row.name)
    .where('version_normalized', '=', row.version_normalized)
    .where('reference', '=', row.reference)
    .execute();
}

export async function isFrozen(db: Db, tenantId: string, name: string): Promise<boolean> {
  const row = await db
    .selectFrom('proxy_freezes')
    .select('name')
    .where('tenant_id', '=', tenantId)
    .where('name', '=', name)
    .executeTakeFirst();
  return Boolean(row);
}

export async function frozenNames(db: Db, tenantId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('proxy_freezes')
    .select('name')
    .where('tenant_id', '=', tenantId)
    .execute();
  return rows.map((r) => r.name);
}

export async function count(db: Db, tenantId: string, metric: Counter, by = 1): Promise<void> {
  if (by === 0) return;
  await db
    .insertInto('proxy_counters')
    .values({ tenant_id: tenantId, day: today(), metric, value: by })
    .onConflict((oc) =>
      oc
        .columns(['tenant_id', 'day', 'metric'])
        .doUpdateSet((eb) => ({ value: eb('proxy_counters.value', '+', by) })),
    )
    .execute();
}

export async function recordDownload(
  db: Db,
  tenantId: string,
  customerId: string,
  name: string,
  normalized: string,
  bytes: number,
): Promise<void> {
  await db
    .insertInto('proxy_downloads')
    .values({
      tenant_id: tenantId,
      customer_id: customerId,
      name,
      version_normalized: normalized,
      day: today(),
      count: 1,
      bytes,
    })
    .onConflict((oc) =>
      oc
        .columns(['tenant_id', 'customer_id', 'name', 'version_normalized', 'day'])
        .doUpdateSet((eb) => ({
          count: eb('proxy_downloads.count', '+', 1),
          bytes: eb('proxy_downloads.bytes', '+', bytes),
        })),
    )
    .execute();
}
