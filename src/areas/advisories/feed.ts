import type { Deps } from '../../context.js';
import { forbidden, notFound } from '../../errors.js';
import { scopeAllows } from '../../composer/package-scopes.js';
import type { CustomerPrincipal } from '../auth/service.js';
import type { KeptMetadata } from './scanner.js';
import * as store from './store.js';
import type { AdvisoryRow } from './store.js';

/** An advisory in Composer's own format (docs/advisories.md). */
export interface ComposerAdvisory {
  advisoryId: string;
  packageName: string;
  remoteId: string;
  title: string;
  link: string | null;
  cve: string | null;
  affectedVersions: string;
  reportedAt: string;
  composerRepository: string;
  sources: { name: string; remoteId: string }[];
  severity: string | null;
}

/** What the feed asks the Composer repository: which names this token may see. */
export interface Visibility {
  availablePackages(principal: CustomerPrincipal): Promise<string[]>;
}

const composerTime = (iso: string) => iso.slice(0, 19).replace('T', ' ');

/**
 * Advisories as Composer reads them: in p2 documents, `POST/GET /api/security-advisories/`,
 * `/security-advisories.json` and `/api/security-advisories/{vendor}/{package}.json`. A private
 * package's advisories reach only tokens that see the package (grants, frozen set, package
 * scopes); a public name's reach any token whose package scopes allow the name.
 */
export class AdvisoryFeed {
  constructor(
    private readonly deps: Deps,
    private readonly kept: KeptMetadata | null,
  ) {}

  /** Records of some packages, by name, without any visibility check (callers decided it). */
  async records(
    tenantId: string,
    names: readonly string[],
    /** The origin of the tenant's repository (its own host in Cloud): `composerRepository`. */
    origin: string,
    updatedSince?: Date,
  ): Promise<Map<string, ComposerAdvisory[]>> {
    const out = new Map<string, ComposerAdvisory[]>();
    if (names.length === 0) return out;
    const rows: AdvisoryRow[] = [];
    for (let i = 0; i < names.length; i += 500) {
      rows.push(...(await store.allAdvisories(this.deps.db, tenantId, names.slice(i, i + 500))));
    }
    // A vendor advisory is about a private package: once that package is gone its name may be
    // anyone's, so its advisories are served to no one.
    const privateNames = rows.some((r) => r.origin === 'vendor')
      ? await this.privateNames(tenantId, [...new Set(rows.map((r) => r.package_name))])
      : new Set<string>();
    const kept = rows
      .filter((r) => r.origin !== 'vendor' || privateNames.has(r.package_name))
      .filter((r) => !updatedSince || Date.parse(r.updated_at) >= updatedSince.getTime());
    const sources = await store.sourceRecordsOf(
      this.deps.db,
      tenantId,
      kept.filter((r) => r.origin !== 'vendor').map((r) => r.id),
    );
    for (const row of kept) {
      const record: ComposerAdvisory = {
        advisoryId: row.advisory_id,
        packageName: row.package_name,
        remoteId: row.remote_id,
        title: row.title,
        link: row.link,
        cve: row.cve,
        affectedVersions: row.affected_versions,
        reportedAt: composerTime(row.reported_at),
        composerRepository: origin,
        sources:
          row.origin === 'vendor'
            ? [{ name: 'vendor', remoteId: row.advisory_id }]
            : sources
                .filter((s) => s.advisory_id === row.id)
                .map((s) => ({ name: s.source, remoteId: s.remote_id })),
        severity: row.severity,
      };
      out.set(row.package_name, [...(out.get(row.package_name) ?? []), record]);
    }
    return out;
  }

  /** One package's records for its p2 document (the caller has checked the token sees it). */
  async forPackage(tenantId: string, name: string, origin: string) {
    const latest = await this.deps.db
      .selectFrom('advisories')
      .select((eb) => eb.fn.max('updated_at').as('at'))
      .where('tenant_id', '=', tenantId)
      .where('package_name', '=', name)
      .executeTakeFirst();
    const records = (await this.records(tenantId, [name], origin)).get(name) ?? [];
    return { records, changedMs: latest?.at ? Date.parse(String(latest.at)) : 0 };
  }

  private privateNames(tenantId: string, names?: readonly string[]): Promise<Set<string>> {
    return store.privatePackageNames(this.deps.db, tenantId, names);
  }

  /** Of `names`, those whose advisories this token may learn. */
  async visibleNames(
    principal: CustomerPrincipal,
    visibility: Visibility,
    names: readonly string[],
  ): Promise<string[]> {
    const tenantId = principal.customer.tenant_id;
    const wanted = [...new Set(names.map((n) => n.trim().toLowerCase()))].filter(Boolean);
    const privateNames = await this.privateNames(tenantId, wanted);
    const seen =
      privateNames.size > 0 ? new Set(await visibility.availablePackages(principal)) : null;
    return wanted.filter((name) =>
      privateNames.has(name)
        ? Boolean(seen?.has(name))
        : scopeAllows(principal.packageScopes, name),
    );
  }

  /** `POST/GET /api/security-advisories/`: the asked names with something to report. */
  async answer(
    principal: CustomerPrincipal,
    visibility: Visibility,
    names: readonly string[],
    origin: string,
    updatedSince?: Date,
  ) {
    const visible = await this.visibleNames(principal, visibility, names.slice(0, 5000));
    const records = await this.records(principal.customer.tenant_id, visible, origin, updatedSince);
    return { advisories: Object.fromEntries([...records].sort(([a], [b]) => a.localeCompare(b))) };
  }

  /** `GET /security-advisories.json`: every package the token sees, and the proxy's cached ones. */
  async everything(principal: CustomerPrincipal, visibility: Visibility, origin: string) {
    const tenantId = principal.customer.tenant_id;
    const names = new Set(await visibility.availablePackages(principal));
    if (this.kept?.enabled) {
      const privateNames = await this.privateNames(tenantId);
      const cached = await this.deps.db
        .selectFrom('proxy_documents')
        .select('name')
        .distinct()
        .where('tenant_id', '=', tenantId)
        .where('status', '=', 'ok')
        .execute();
      for (const { name } of cached) {
        if (!privateNames.has(name) && scopeAllows(principal.packageScopes, name)) names.add(name);
      }
    }
    const records = await this.records(tenantId, [...names], origin);
    return { advisories: Object.fromEntries([...records].sort(([a], [b]) => a.localeCompare(b))) };
  }

  /** `GET /api/security-advisories/{vendor}/{package}.json`: 403/404 for private names as p2. */
  async one(principal: CustomerPrincipal, visibility: Visibility, name: string, origin: string) {
    const tenantId = principal.customer.tenant_id;
    const isPrivate = (await this.privateNames(tenantId, [name])).has(name);
    if (isPrivate) {
      if (!scopeAllows(principal.packageScopes, name)) {
        throw forbidden(`This token's package scopes do not include ${name}`);
      }
      if (!(await visibility.availablePackages(principal)).includes(name)) {
        throw forbidden(`No access to ${name}`);
      }
    } else if (!scopeAllows(principal.packageScopes, name)) {
      throw forbidden(`This token's package scopes do not include ${name}`);
    }
    const { records } = await this.forPackage(tenantId, name, origin);
    if (!isPrivate && records.length === 0) throw notFound(`Advisories of ${name}`);
    return { advisories: records.length > 0 ? { [name]: records } : {} };
  }
}
