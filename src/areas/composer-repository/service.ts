import type { StoredRead } from '../../infra/storage/storage.js';
import type { Deps } from '../../context.js';
import { AppError, forbidden, notFound, unauthorized } from '../../errors.js';
import type { Credentials, CustomerPrincipal } from '../auth/service.js';
import type { AuthService } from '../auth/service.js';
import {
  archiveRange,
  findPackageByName,
  findPackageMetadata,
  findVersion,
} from '../packages/catalog.js';
import type { PackageRow, VersionRow } from '../packages/catalog.js';
import { normalizeVersion } from '../../composer/semver/index.js';
import type { MetadataKind, StoredEntry, VersionEntry } from '../../composer/metadata.js';
import { scopeAllows } from '../../composer/package-scopes.js';
import {
  VersionGate,
  customerVisibility,
  tokenAccessConstraints,
} from '../../composer/visibility.js';
import { UsageService } from '../usage/service.js';
import { ResponseCache } from './response-cache.js';
import { audienceFingerprint } from './audience.js';
import { findPublicGrant, listPublicGrants } from '../access/public-grants.js';
import { grantedDocument } from './public-access.js';

export type { PackageAdvisories, PackageDocument, PublicPackages } from './ports.js';
import type { PackageAdvisories, PackageDocument, PublicPackages } from './ports.js';

const DOWNLOAD_SCOPES = new Set(['admin', 'developer', 'download']);

/** What a customer may see of one package. */
interface PackageView {
  pkg: PackageRow;
  gate: VersionGate;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function distPath(name: string, normalized: string): string {
  return `/dist/${name}/${encodeURIComponent(normalized)}.zip`;
}

/** The Composer repository as one customer token sees it (service.md access rules 1-5). */
export class ComposerService {
  readonly usage: UsageService;
  /** Rendered root and p2 answers per audience (see ResponseCache). */
  readonly responses: ResponseCache;
  /** Set by createServices when the proxy exists; null serves private packages only. */
  publicPackages: PublicPackages | null = null;
  /** Set by createServices on editions with security advisories. */
  advisories: PackageAdvisories | null = null;

  constructor(
    private readonly deps: Deps,
    private readonly auth: AuthService,
  ) {
    this.usage = new UsageService(deps);
    this.responses = new ResponseCache(deps.generations);
  }

  /** 401 for bad credentials, 403 for a token or customer that may not download. */
  async authenticate(tenantId: string, credentials: Credentials): Promise<CustomerPrincipal> {
    const message = 'Invalid, expired or revoked token';
    const found = await this.auth.authenticate(tenantId, credentials, ['customer'], message);
    if (found.kind !== 'customer') throw unauthorized(message);
    const principal = found.customer;
    if (!DOWNLOAD_SCOPES.has(principal.scope)) {
      throw forbidden(`Tokens with scope "${principal.scope}" cannot download packages`);
    }
    const status = principal.customer.status;
    if (status === 'SUSPENDED' || status === 'EXPIRED') {
      throw forbidden(`Customer access is ${status.toLowerCase()}`);
    }
    return principal;
  }

  /** Tokens with the same fingerprint see the same documents (see audience.ts). */
  audienceOf(
    principal: CustomerPrincipal,
    access?: ReadonlyMap<string, readonly string[]>,
  ): Promise<string> {
    const publicGrants =
      Boolean(this.publicPackages?.enabled) && this.deps.config.proxy.visibility === 'granted';
    return audienceFingerprint(this.deps.db, principal, publicGrants, access);
  }

  /** What the customer of a token may see, read by the token's digest (see audienceOf). */
  accessOfToken(tenantId: string, tokenDigest: string): Promise<Map<string, string[]>> {
    return tokenAccessConstraints(this.deps.db, tenantId, tokenDigest);
  }

  /** Names of every package this principal may see, sorted. */
  async availablePackages(principal: CustomerPrincipal): Promise<string[]> {
    const { customer } = principal;
    const visible = await customerVisibility(this.deps.db, customer.tenant_id, customer);
    const names = [...visible.values()].map((a) => a.name);
    // PROXY_VISIBILITY=granted: the public packages granted by name are listed too.
    if (this.publicPackages?.enabled && this.deps.config.proxy.visibility === 'granted') {
      const granted = await listPublicGrants(this.deps.db, customer.tenant_id, customer.id);
      names.push(...granted.map((g) => g.package));
    }
    return names.filter((name) => scopeAllows(principal.packageScopes, name)).sort();
  }

  /** True when public names are visible to every customer (packages.json then lists none). */
  get publicNamesOpen(): boolean {
    return Boolean(this.publicPackages?.enabled) && this.deps.config.proxy.visibility === 'all';
  }

  /**
   * Whether `name` is served from the public upstream for this principal: false for a private
   * package (never asked upstream, whatever the upstream holds) or without a proxy; 403 when
   * the token may not see it.
   */
  async isPublicFor(principal: CustomerPrincipal, name: string): Promise<boolean> {
    if (!this.publicPackages?.enabled) return false;
    const tenantId = principal.customer.tenant_id;
    if (await findPackageByName(this.deps.db, tenantId, name)) return false;
    if (!scopeAllows(principal.packageScopes, name)) {
      throw forbidden(`This token's package scopes do not include ${name}`);
    }
    if (this.deps.config.proxy.visibility !== 'all' && !(await this.publicGrant(principal, name))) {
      throw forbidden(`No access to ${name}`);
    }
    return true;
  }

  /** The customer's grant of public package `name` (PROXY_VISIBILITY=granted), if any. */
  private publicGrant(principal: CustomerPrincipal, name: string) {
    const { customer } = principal;
    return findPublicGrant(this.deps.db, customer.tenant_id, customer.id, name);
  }

  /** Whether a public version may be downloaded: any with `all`, the granted ones with `granted`. */
  async allowsPublicVersion(
    principal: CustomerPrincipal,
    name: string,
    normalized: string,
  ): Promise<boolean> {
    if (this.deps.config.proxy.visibility === 'all') return true;
    const grant = await this.publicGrant(principal, name);
    return grant !== undefined && VersionGate.of([grant.constraint]).admits(normalized);
  }

  private async view(principal: CustomerPrincipal, name: string): Promise<PackageView> {
    const { customer } = principal;
    const pkg = await findPackageByName(this.deps.db, customer.tenant_id, name);
    if (!pkg) throw notFound(`Package ${name}`);
    if (!scopeAllows(principal.packageScopes, name)) {
      throw forbidden(`This token's package scopes do not include ${name}`);
    }
    const visible = (
      await customerVisibility(this.deps.db, customer.tenant_id, customer, {
        packageId: pkg.id,
        onInvalid: (constraint) =>
          this.deps.log.warn(
            { tenant: customer.tenant_id, customer: customer.id, package: name, constraint },
            'a stored grant constraint no longer parses; it grants nothing',
          ),
      })
    ).get(pkg.id);
    if (!visible) {
      const frozen = customer.status === 'FROZEN' ? ': no frozen version of it' : '';
      throw forbidden(`No access to ${name}${frozen}`);
    }
    return { pkg, gate: visible.gate };
  }

  /** The versions of one p2 document this principal may see, with absolute dist URLs. */
  async packageDocument(
    principal: CustomerPrincipal,
    name: string,
    kind: MetadataKind,
    baseUrl: string,
  ): Promise<PackageDocument> {
    if (this.publicPackages && (await this.isPublicFor(principal, name))) {
      const { doc, validUntilMs } = await this.publicPackages.document(
        principal.customer.tenant_id,
        name,
        kind,
        baseUrl,
      );
      const validUntil = Number.isFinite(validUntilMs)
        ? new Date(validUntilMs).toISOString()
        : undefined;
      const grant =
        this.deps.config.proxy.visibility === 'all'
          ? undefined
          : await this.publicGrant(principal, name);
      const shown = grant
        ? grantedDocument(
            doc,
            name,
            grant,
            await this.deps.generations.stampMs(principal.customer.tenant_id),
          )
        : doc;
      return {
        body: null,
        lastModified: new Date(shown.lastModifiedMs),
        rendered: shown,
        validUntil,
      };
    }
    const view = await this.view(principal, name);
    const tenantId = principal.customer.tenant_id;
    // Independent reads, at once: on PostgreSQL a computed answer then waits for one round trip,
    // not four.
    const [doc, stamp, packageStamp, advisories] = await Promise.all([
      findPackageMetadata(this.deps.db, view.pkg.tenant_id, view.pkg.id, kind),
      // The access-change stamp moves past every Last-Modified served before any change to what
      // a customer may see, so If-Modified-Since revalidation never keeps a stale list. Nothing
      // of one customer goes in: customers of the same audience share the answer (audience.ts).
      this.deps.generations.stampMs(tenantId),
      // A change about this package alone (an advisory) moved its own stamp, not the tenant's.
      this.deps.generations.packageStampMs(tenantId, view.pkg.name),
      this.advisories?.forPackage(tenantId, view.pkg.name, baseUrl),
    ]);
    const entries = doc ? (JSON.parse(doc.entries) as StoredEntry[]) : [];
    const versions: VersionEntry[] = [];
    for (const { n, e } of entries) {
      if (!view.gate.admits(n)) continue;
      const dist = e.dist;
      const url = baseUrl + distPath(view.pkg.name, n);
      // Parsed for this answer alone, so changed in place: the same keys in the same order as
      // copies would have (`url` last in dist), without copying 1,000 entries.
      if (isPlainObject(dist)) {
        dist.url = url;
        versions.push(e);
      } else versions.push({ ...e, dist: { ...(dist as object), url } });
    }
    const modified = Date.parse(doc?.last_modified ?? view.pkg.created_at);
    const body: Record<string, unknown> = { packages: { [view.pkg.name]: versions } };
    if (advisories) body['security-advisories'] = advisories.records;
    return {
      body,
      lastModified: new Date(Math.max(stamp, packageStamp, Number.isNaN(modified) ? 0 : modified)),
    };
  }

  /** The archive of a version the principal can see; yanked versions stay downloadable. */
  async archive(
    principal: CustomerPrincipal,
    name: string,
    version: string,
  ): Promise<{ pkg: PackageRow; version: VersionRow; archive: StoredRead }> {
    const view = await this.view(principal, name);
    let normalized: string;
    try {
      normalized = normalizeVersion(version);
    } catch {
      throw notFound(`Version ${version} of ${name}`);
    }
    const found = await findVersion(this.deps.db, view.pkg, normalized);
    if (!found) throw notFound(`Version ${version} of ${name}`);
    if (!view.gate.admits(normalized)) {
      throw forbidden(`Version ${found.version} of ${name} is not included in your access`);
    }
    const archive = await this.deps.storage.getStream(found.dist_key, archiveRange(found));
    if (!archive) throw new AppError('NOT_FOUND', `Archive of ${name} ${found.version} is missing`);
    return { pkg: view.pkg, version: found, archive };
  }
}
