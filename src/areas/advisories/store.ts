import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../infra/db/connection.js';
import { pageOf } from '../../infra/db/page.js';
import type {
  AdvisoriesTable,
  AdvisorySourcesTable,
  VulnerabilityMatchesTable,
} from '../../infra/db/schema.js';

export type AdvisoryRow = Selectable<AdvisoriesTable>;
export type AdvisorySourceRow = Selectable<AdvisorySourcesTable>;
export type MatchRow = Selectable<VulnerabilityMatchesTable>;

/** Rows per statement when writing in bulk (SQLite allows 32,766 bound values). */
const CHUNK = 200;

export async function listVendorAdvisories(
  db: Db,
  tenantId: string,
  page: { offset: number; limit: number },
): Promise<{ rows: AdvisoryRow[]; total: number }> {
  const base = db
    .selectFrom('advisories')
    .where('tenant_id', '=', tenantId)
    .where('origin', '=', 'vendor');
  return pageOf(base, (qb) => qb.selectAll().orderBy('advisory_id', 'desc'), page);
}

/** An advisory by its id or its PKYD advisory id. */
export function findAdvisory(db: Db, tenantId: string, id: string) {
  return db
    .selectFrom('advisories')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where((eb) => eb.or([eb('id', '=', id), eb('advisory_id', '=', id)]))
    .executeTakeFirst();
}

export function allAdvisories(db: Db, tenantId: string, packages?: readonly string[]) {
  let q = db.selectFrom('advisories').selectAll().where('tenant_id', '=', tenantId);
  if (packages) q = q.where('package_name', 'in', packages.length ? [...packages] : ['']);
  return q.orderBy('package_name').orderBy('advisory_id').execute();
}

/** Every source record of the tenant: remote ids, digests and the advisory each belongs to. */
export function allSourceRecords(db: Db, tenantId: string) {
  return db
    .selectFrom('advisory_sources')
    .select(['source', 'remote_id', 'advisory_id', 'digest'])
    .where('tenant_id', '=', tenantId)
    .execute();
}

export function sourceRecordsOf(db: Db, tenantId: string, advisoryIds: readonly string[]) {
  if (advisoryIds.length === 0) return Promise.resolve([] as AdvisorySourceRow[]);
  return db
    .selectFrom('advisory_sources')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('advisory_id', 'in', [...advisoryIds])
    .orderBy('source')
    .orderBy('remote_id')
    .execute();
}

export async function insertAdvisories(db: Db, rows: Insertable<AdvisoriesTable>[]) {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db
      .insertInto('advisories')
      .values(rows.slice(i, i + CHUNK))
      .execute();
  }
}

/** Writes source records, replacing one with the same (source, remote id). */
export async function upsertSourceRecords(db: Db, rows: AdvisorySourceRow[]) {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db
      .insertInto('advisory_sources')
      .values(rows.slice(i, i + CHUNK))
      .onConflict((oc) =>
        oc.columns(['tenant_id', 'source', 'remote_id']).doUpdateSet((eb) => ({
          advisory_id: eb.ref('excluded.advisory_id'),
          digest: eb.ref('excluded.digest'),
          record: eb.ref('excluded.record'),
          imported_at: eb.ref('excluded.imported_at'),
        })),
      )
      .execute();
  }
}

/** The highest sequence number of `PKYD-<year>-NNNN` ids of the tenant (0 when none). */
export async function lastSequence(db: Db, tenantId: string, year: number): Promise<number> {
  const rows = await db
    .selectFrom('advisories')
    .select('advisory_id')
    .where('tenant_id', '=', tenantId)
    .where('advisory_id', 'like', `PKYD-${year}-%`)
    .execute();
  let max = 0;
  for (const r of rows) max = Math.max(max, Number(r.advisory_id.split('-')[2]) || 0);
  return max;
}

export function fingerprintOf(db: Db, tenantId: string, source: string) {
  return db
    .selectFrom('advisory_fingerprints')
    .select('fingerprint')
    .where('tenant_id', '=', tenantId)
    .where('source', '=', source)
    .executeTakeFirst();
}

export async function saveFingerprint(db: Db, tenantId: string, source: string, value: string) {
  const now = new Date().toISOString();
  await db
    .insertInto('advisory_fingerprints')
    .values({ tenant_id: tenantId, source, fingerprint: value, imported_at: now })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'source']).doUpdateSet({ fingerprint: value, imported_at: now }),
    )
    .execute();
}

export function matchesOf(db: Db, tenantId: string, packages?: readonly string[]) {
  let q = db.selectFrom('vulnerability_matches').selectAll().where('tenant_id', '=', tenantId);
  if (packages) q = q.where('package_name', 'in', packages.length ? [...packages] : ['']);
  return q.execute();
}

export async function insertMatches(db: Db, rows: MatchRow[]): Promise<MatchRow[]> {
  const inserted: MatchRow[] = [];
  for (let i = 0; i < rows.length; i += CHUNK) {
    const done = await db
      .insertInto('vulnerability_matches')
      .values(rows.slice(i, i + CHUNK))
      .onConflict((oc) =>
        oc.columns(['tenant_id', 'advisory_id', 'version_normalized']).doNothing(),
      )
      .returningAll()
      .execute();
    inserted.push(...done);
  }
  return inserted;
}

export async function deleteMatches(
  db: Db,
  tenantId: string,
  gone: { advisory_id: string; version_normalized: string }[],
) {
  for (const m of gone) {
    await db
      .deleteFrom('vulnerability_matches')
      .where('tenant_id', '=', tenantId)
      .where('advisory_id', '=', m.advisory_id)
      .where('version_normalized', '=', m.version_normalized)
      .execute();
  }
}

/** Every version the registry holds of private packages (synced or uploaded), not yanked ones too. */
export function privateVersions(db: Db, tenantId: string, packages?: readonly string[]) {
  let q = db
    .selectFrom('versions as v')
    .innerJoin('packages as p', 'p.id', 'v.package_id')
    .select(['p.name', 'v.version', 'v.version_normalized'])
    .where('v.tenant_id', '=', tenantId);
  if (packages) q = q.where('p.name', 'in', packages.length ? [...packages] : ['']);
  return q.execute();
}

/** Downloads of some versions of one package, per customer (from the download statistics). */
export function downloadsOf(db: Db, tenantId: string, name: string, versions: readonly string[]) {
  if (versions.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('downloads as d')
    .innerJoin('packages as p', 'p.id', 'd.package_id')
    .innerJoin('customers as c', 'c.id', 'd.customer_id')
    .select(['c.id as customer_id', 'c.name', 'd.version_normalized'])
    .where('d.tenant_id', '=', tenantId)
    .where('p.name', '=', name)
    .where('d.version_normalized', 'in', [...versions])
    .groupBy(['c.id', 'c.name', 'd.version_normalized'])
    .execute();
}

/** Names of the tenant's private packages (all, or those among `names`). */
export async function privatePackageNames(db: Db, tenantId: string, names?: readonly string[]) {
  let q = db.selectFrom('packages').select('name').where('tenant_id', '=', tenantId);
  if (names) q = q.where('name', 'in', names.length ? [...names] : ['']);
  return new Set((await q.execute()).map((r) => r.name));
}

/** Changes an advisory's fields. */
export async function updateAdvisory(
  db: Db,
  tenantId: string,
  id: string,
  patch: Partial<Insertable<AdvisoriesTable>>,
) {
  await db
    .updateTable('advisories')
    .set(patch)
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();
}

/** Deletes an advisory with its matches and source records. */
export async function deleteAdvisory(db: Db, tenantId: string, id: string) {
  for (const table of ['vulnerability_matches', 'advisory_sources'] as const) {
    await db
      .deleteFrom(table)
      .where('tenant_id', '=', tenantId)
      .where('advisory_id', '=', id)
      .execute();
  }
  await db
    .deleteFrom('advisories')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();
}
