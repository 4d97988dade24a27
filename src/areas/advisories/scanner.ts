import type { Deps } from '../../context.js';
import type { Db } from '../../infra/db/connection.js';
import { transact } from '../../unit-of-work.js';
import { addAlert, keptVersions } from '../proxy/held-versions.js';
import { byPackage, matchAll } from './matching.js';
import type { HeldVersion } from './matching.js';
import * as store from './store.js';
import type { AdvisoryRow, MatchRow } from './store.js';

/** Whether the proxy keeps public metadata (under each tenant's own id) to match against. */
export interface KeptMetadata {
  readonly enabled: boolean;
}

export interface ScanOutcome {
  /** Advisory x held version pairs found now. */
  matches: number;
  /** Of those, found for the first time. */
  new_matches: number;
  /** Matches removed (the version or the advisory is gone, or no longer affected). */
  resolved_matches: number;
}

const system = (tenantId: string) => ({ tenantId, actor: { kind: 'system' as const, id: null } });

/**
 * Matches advisories against every version the registry holds (docs/advisories.md): synced and
 * uploaded versions of private packages, and the versions listed in the proxy's kept metadata.
 * New matches publish `vulnerability.detected` after commit; a new match on a public version
 * the proxy keeps adds a proxy alert of type `advisory`.
 */
export class VulnerabilityScanner {
  constructor(
    private readonly deps: Deps,
    private readonly kept: KeptMetadata | null,
  ) {}

  /** Every version held, of some packages or of all. */
  async heldVersions(tenantId: string, packages?: readonly string[]): Promise<HeldVersion[]> {
    const db = this.deps.db;
    const own = await store.privateVersions(db, tenantId, packages);
    const held: HeldVersion[] = own.map((v) => ({ ...v, origin: 'private' }));
    if (this.kept?.enabled) {
      const privateNames = await store.privatePackageNames(db, tenantId, packages);
      for (const v of await keptVersions(db, tenantId, packages)) {
        if (privateNames.has(v.name)) continue;
        const { name, version, version_normalized } = v;
        held.push({ name, version, version_normalized, origin: 'proxy' });
      }
    }
    return held;
  }

  /**
   * Whether any of `names` has p2 documents: a private package, or one the proxy keeps. Inside a
   * unit of work pass its `db` (SQLite has one connection: the outer handle would wait forever).
   */
  async servesAny(tenantId: string, names: readonly string[], db: Db = this.deps.db) {
    for (let i = 0; i < names.length; i += 500) {
      const chunk = names.slice(i, i + 500);
      if ((await store.privatePackageNames(db, tenantId, chunk)).size > 0) return true;
      if (!this.kept?.enabled) continue;
      const kept = await db
        .selectFrom('proxy_documents')
        .select('name')
        .where('tenant_id', '=', tenantId)
        .where('name', 'in', chunk)
        .limit(1)
        .executeTakeFirst();
      if (kept) return true;
    }
    return false;
  }

  /** Re-matches the tenant's advisories of `packages` (all when omitted) and stores the result. */
  async match(tenantId: string, packages?: readonly string[]): Promise<ScanOutcome> {
    const db = this.deps.db;
    const names = packages ? [...new Set(packages.map((p) => p.toLowerCase()))] : undefined;
    const advisories = await store.allAdvisories(db, tenantId, names);
    // Run after every sync: without an advisory about these packages nothing can match, so
    // their versions (1,000 rows for a large package) are not read; stored matches still go.
    const held =
      advisories.length > 0 ? byPackage(await this.heldVersions(tenantId, names)) : byPackage([]);
    const found = matchAll(advisories, held);
    const key = (advisoryId: string, version: string) => `${advisoryId}\n${version}`;
    const now = new Date().toISOString();
    const wanted = new Map<string, MatchRow>();
    for (const { advisory, version } of found) {
      wanted.set(key(advisory.id, version.version_normalized), {
        tenant_id: tenantId,
        advisory_id: advisory.id,
        package_name: advisory.package_name,
        version_normalized: version.version_normalized,
        version: version.version,
        origin: version.origin,
        detected_at: now,
      });
    }
    const existing = await store.matchesOf(db, tenantId, names);
    const have = new Set(existing.map((m) => key(m.advisory_id, m.version_normalized)));
    const fresh = [...wanted.entries()].filter(([k]) => !have.has(k)).map(([, m]) => m);
    const gone = existing.filter((m) => !wanted.has(key(m.advisory_id, m.version_normalized)));
    if (fresh.length === 0 && gone.length === 0) {
      return { matches: wanted.size, new_matches: 0, resolved_matches: 0 };
    }
    const byId = new Map(advisories.map((a) => [a.id, a]));
    const inserted = await transact(this.deps, system(tenantId), async (tx) => {
      await store.deleteMatches(tx.db, tenantId, gone);
      // Another node may have stored the same match meanwhile: only rows inserted here count.
      const added = await store.insertMatches(tx.db, fresh);
      for (const [advisoryId, rows] of groupBy(added, (m) => m.advisory_id)) {
        const advisory = byId.get(advisoryId);
        if (!advisory) continue;
        tx.publish(detectedEvent(tenantId, advisory, rows, now));
        tx.emit('vulnerability.detected', {
          advisory_id: advisory.advisory_id,
          package: advisory.package_name,
          affected_versions: rows.map((r) => r.version),
        });
        const cached = rows.filter((r) => r.origin === 'proxy').map((r) => r.version);
        if (cached.length > 0) {
          await addAlert(
            tx.db,
            tenantId,
            'advisory',
            advisory.package_name,
            alertText(advisory, cached),
          );
        }
      }
      return added;
    });
    return { matches: wanted.size, new_matches: inserted.length, resolved_matches: gone.length };
  }
}

function groupBy<T>(rows: readonly T[], keyOf: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const k = keyOf(row);
    const list = out.get(k);
    if (list) list.push(row);
    else out.set(k, [row]);
  }
  return out;
}

function detectedEvent(tenantId: string, advisory: AdvisoryRow, rows: MatchRow[], at: string) {
  return {
    type: 'vulnerability.detected' as const,
    tenantId,
    advisoryId: advisory.advisory_id,
    vulnerabilityId: advisory.id,
    package: advisory.package_name,
    severity: advisory.severity,
    cve: advisory.cve,
    versions: rows.map((r) => r.version),
    at,
  };
}

function alertText(advisory: AdvisoryRow, versions: string[]): string {
  const id = advisory.cve ? `${advisory.advisory_id} (${advisory.cve})` : advisory.advisory_id;
  return `Advisory ${id} "${advisory.title}" affects cached ${advisory.package_name} ${versions.join(', ')}`;
}
