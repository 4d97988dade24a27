import crypto from 'node:crypto';
import type { Deps } from '../../context.js';
import type { Db } from '../../infra/db/connection.js';
import { newId } from '../../infra/crypto.js';
import { transact } from '../../unit-of-work.js';
import { parseConstraint } from '../../composer/semver/index.js';
import type { AdvisorySource, ImportedAdvisory, SourceProblem } from './sources/types.js';
import { mergeRecords, mergeKeys } from './merge.js';
import * as store from './store.js';
import type { AdvisorySourceRow } from './store.js';

const PACKAGE_NAME = /^[a-z0-9]([_.-]?[a-z0-9]+)*\/[a-z0-9](([_.]|-{1,2})?[a-z0-9]+)*$/;

/** What one source brought to an import (an item of the `advisories.import` task result). */
export interface SourceReport {
  source: string;
  status: 'imported' | 'unchanged' | 'failed';
  error?: string;
  records: number;
  added: number;
  changed: number;
  unchanged: number;
  problems: SourceProblem[];
}

export interface ImportReport {
  sources: SourceReport[];
  advisories_added: number;
  advisories_updated: number;
  /** Package names whose advisories changed (their p2 documents and matches change). */
  packages: string[];
}

const system = (tenantId: string) => ({ tenantId, actor: { kind: 'system' as const, id: null } });

/** A problem with a record that makes it unusable, or null. */
export function recordProblem(r: ImportedAdvisory): string | null {
  if (!r.remoteId) return 'has no id';
  if (typeof r.packageName !== 'string' || !PACKAGE_NAME.test(r.packageName)) {
    return `names no Composer package (${String(r.packageName)})`;
  }
  if (!r.title) return 'has no title';
  if (!(r.reportedAt instanceof Date) || Number.isNaN(r.reportedAt.getTime())) {
    return 'has no valid report date';
  }
  try {
    parseConstraint(r.affectedVersions);
  } catch (err) {
    return `affected versions "${r.affectedVersions}" are not a Composer constraint: ${(err as Error).message}`;
  }
  return null;
}

const digestOf = (json: string) => crypto.createHash('sha256').update(json).digest('hex');

/**
 * Imports every configured source into one tenant (docs/advisories.md): records merge into one
 * advisory per vulnerability and package (shared CVE, GHSA id or alias); a record whose digest is
 * unchanged costs nothing; a source whose fingerprint is unchanged is not even read past it; a
 * failing source or a malformed record is reported, and nothing already imported is removed.
 */
export async function importSources(
  deps: Deps,
  tenantId: string,
  sources: readonly AdvisorySource[],
  signal: AbortSignal,
  /** Whether any of these packages has p2 documents served (private, or kept by the proxy). */
  served: (names: string[], db: Db) => Promise<boolean> = async () => true,
): Promise<ImportReport> {
  const db = deps.db;
  const reports: SourceReport[] = [];
  const incoming: { record: ImportedAdvisory; json: string; digest: string }[] = [];
  const fingerprints: { source: string; value: string }[] = [];
  const known = new Map(
    (await store.allSourceRecords(db, tenantId)).map((r) => [`${r.source}\n${r.remote_id}`, r]),
  );
  for (const source of sources) {
    const report: SourceReport = {
      source: source.name,
      status: 'imported',
      records: 0,
      added: 0,
      changed: 0,
      unchanged: 0,
      problems: [],
    };
    reports.push(report);
    const previous = (await store.fingerprintOf(db, tenantId, source.name))?.fingerprint ?? null;
    let result;
    try {
      result = await source.read(signal, previous);
    } catch (err) {
      result = { source: source.name, records: [], problems: [], failed: (err as Error).message };
    }
    report.problems = [...result.problems];
    if (result.failed) {
      report.status = 'failed';
      report.error = result.failed;
      continue;
    }
    if (result.unchanged) {
      report.status = 'unchanged';
      continue;
    }
    report.records = result.records.length;
    const seen = new Set<string>();
    for (const raw of result.records) {
      const record =
        typeof raw.packageName === 'string'
          ? { ...raw, packageName: raw.packageName.trim().toLowerCase() }
          : raw;
      const problem = recordProblem(record);
      if (problem) {
        report.problems.push({ record: record.remoteId || undefined, message: problem });
        continue;
      }
      const id = `${source.name}\n${record.remoteId}`;
      if (seen.has(id)) {
        report.problems.push({ record: record.remoteId, message: 'appears twice; first kept' });
        continue;
      }
      seen.add(id);
      const json = JSON.stringify({ ...record, source: source.name });
      const digest = digestOf(json);
      const before = known.get(id);
      if (before?.digest === digest) {
        report.unchanged += 1;
        continue;
      }
      if (before) report.changed += 1;
      else report.added += 1;
      incoming.push({ record: { ...record, source: source.name }, json, digest });
    }
    if (result.fingerprint) fingerprints.push({ source: source.name, value: result.fingerprint });
  }
  const outcome = await store_(deps, tenantId, incoming, known, served);
  for (const f of fingerprints) await store.saveFingerprint(db, tenantId, f.source, f.value);
  return { sources: reports, ...outcome };
}

/** Writes the new and changed records, merging them into advisories, in one unit of work. */
async function store_(
  deps: Deps,
  tenantId: string,
  incoming: { record: ImportedAdvisory; json: string; digest: string }[],
  known: Map<string, { advisory_id: string }>,
  served: (names: string[], db: Db) => Promise<boolean>,
): Promise<Omit<ImportReport, 'sources'>> {
  if (incoming.length === 0) return { advisories_added: 0, advisories_updated: 0, packages: [] };
  return transact(deps, system(tenantId), async (tx) => {
    const db = tx.db;
    const existing = (await store.allAdvisories(db, tenantId)).filter((a) => a.origin !== 'vendor');
    // Merge index: `<package>\n<id>` of every CVE, GHSA id and alias of every imported advisory.
    const index = new Map<string, string>();
    for (const a of existing) {
      for (const k of mergeKeys(a.package_name, JSON.parse(a.aliases) as string[]))
        index.set(k, a.id);
    }
    const now = new Date().toISOString();
    const year = new Date().getUTCFullYear();
    let sequence = await store.lastSequence(db, tenantId, year);
    const created = new Set<string>();
    const touched = new Set<string>();
    const rows: AdvisorySourceRow[] = [];
    const newAdvisories = new Map<string, { package_name: string }>();
    for (const { record, json, digest } of incoming) {
      const keys = mergeKeys(record.packageName, [record.cve, ...idsOf(record)]);
      let advisoryId =
        known.get(`${record.source}\n${record.remoteId}`)?.advisory_id ??
        keys.map((k) => index.get(k)).find((id) => id !== undefined);
      if (!advisoryId) {
        advisoryId = newId();
        created.add(advisoryId);
        newAdvisories.set(advisoryId, { package_name: record.packageName });
      }
      for (const k of keys) if (!index.has(k)) index.set(k, advisoryId);
      touched.add(advisoryId);
      rows.push({
        tenant_id: tenantId,
        source: record.source,
        remote_id: record.remoteId,
        advisory_id: advisoryId,
        digest,
        record: json,
        imported_at: now,
      });
    }
    await store.upsertSourceRecords(db, rows);
    const ids = [...touched];
    const records = await store.sourceRecordsOf(db, tenantId, ids);
    const bySource = new Map<string, AdvisorySourceRow[]>();
    for (const r of records)
      bySource.set(r.advisory_id, [...(bySource.get(r.advisory_id) ?? []), r]);
    const packages = new Set<string>();
    const inserts = [];
    for (const id of ids) {
      const merged = mergeRecords(
        (bySource.get(id) ?? []).map((r) => JSON.parse(r.record) as ImportedAdvisory),
      );
      packages.add(merged.package_name);
      if (created.has(id)) {
        sequence += 1;
        inserts.push({
          id,
          tenant_id: tenantId,
          advisory_id: `PKYD-${year}-${String(sequence).padStart(4, '0')}`,
          origin: 'imported',
          ...merged,
          created_at: now,
          updated_at: now,
        });
      } else {
        await db
          .updateTable('advisories')
          .set({ ...merged, updated_at: now })
          .where('tenant_id', '=', tenantId)
          .where('id', '=', id)
          .execute();
      }
    }
    await store.insertAdvisories(db, inserts);
    // Advisories are part of every p2 document of their package: exactly those documents'
    // cached answers forget, when a changed advisory is about a package served at all.
    if (await served([...packages], db)) tx.packagesChanged(packages);
    return {
      advisories_added: created.size,
      advisories_updated: ids.length - created.size,
      packages: [...packages].sort(),
    };
  });
}

/** The ids a record is known by besides its CVE: its aliases, and its own id unless a file path. */
function idsOf(record: ImportedAdvisory): string[] {
  const own = record.remoteId.includes('/') ? [] : [record.remoteId];
  return [...own, ...record.aliases];
}
