import type { Ctx, Deps } from '../../context.js';
import { notFound } from '../../errors.js';
import { byPackage, patchedVersions } from './matching.js';
import type { VulnerabilityScanner } from './scanner.js';
import type { VulnerabilityFilter } from './schema.js';
import * as store from './store.js';
import type { AdvisoryRow, MatchRow } from './store.js';

export interface AffectedCustomer {
  customer_id: string;
  name: string;
  versions: string[];
}

export interface VulnerabilityView {
  advisory: AdvisoryRow;
  matches: MatchRow[];
  patched: string[];
  sources: { name: string; remote_id: string }[];
  customers: AffectedCustomer[];
}

/**
 * The Vulnerabilities group (docs/advisories.md): advisories that match at least one held version,
 * with the versions they affect, the newer ones they do not, and the customers that downloaded
 * an affected version (download statistics of private archives and of the proxy's).
 */
export class VulnerabilityService {
  constructor(
    private readonly deps: Deps,
    private readonly scanner: VulnerabilityScanner,
  ) {}

  private get db() {
    return this.deps.db;
  }

  async list(
    ctx: Ctx,
    filter: Pick<VulnerabilityFilter, 'package' | 'severity'> & { offset: number; limit: number },
  ): Promise<{ views: VulnerabilityView[]; total: number }> {
    let base = this.db
      .selectFrom('advisories as a')
      .where('a.tenant_id', '=', ctx.tenantId)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('vulnerability_matches as m')
            .select('m.advisory_id')
            .whereRef('m.advisory_id', '=', 'a.id')
            .where('m.tenant_id', '=', ctx.tenantId),
        ),
      );
    if (filter.package) base = base.where('a.package_name', '=', filter.package.toLowerCase());
    if (filter.severity) base = base.where('a.severity', '=', filter.severity);
    const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    const rows = await base
      .selectAll('a')
      .orderBy('a.reported_at', 'desc')
      .orderBy('a.advisory_id', 'desc')
      .offset(filter.offset)
      .limit(filter.limit)
      .execute();
    return { views: await this.views(ctx.tenantId, rows), total: Number(count?.n ?? 0) };
  }

  /** A vulnerability by its id (or PKYD advisory id); 404 when the advisory matches nothing held. */
  async get(ctx: Ctx, id: string): Promise<VulnerabilityView> {
    const row = await store.findAdvisory(this.db, ctx.tenantId, id);
    const [view] = row ? await this.views(ctx.tenantId, [row]) : [];
    if (!view || view.matches.length === 0) throw notFound('Vulnerability');
    return view;
  }

  /** GraphQL `vulnerabilities(packageName)`: every vulnerability, or one package's. */
  async all(ctx: Ctx, packageName?: string | null): Promise<VulnerabilityView[]> {
    const out: VulnerabilityView[] = [];
    for (let offset = 0; ; offset += 500) {
      const { views } = await this.list(ctx, {
        package: packageName ?? undefined,
        offset,
        limit: 500,
      });
      out.push(...views);
      if (views.length < 500) return out;
    }
  }

  private async views(tenantId: string, rows: AdvisoryRow[]): Promise<VulnerabilityView[]> {
    if (rows.length === 0) return [];
    const packages = [...new Set(rows.map((r) => r.package_name))];
    const [matches, held, sources] = await Promise.all([
      store.matchesOf(this.db, tenantId, packages),
      this.scanner.heldVersions(tenantId, packages),
      store.sourceRecordsOf(
        this.db,
        tenantId,
        rows.map((r) => r.id),
      ),
    ]);
    const heldBy = byPackage(held);
    const out: VulnerabilityView[] = [];
    for (const advisory of rows) {
      const own = matches
        .filter((m) => m.advisory_id === advisory.id)
        .sort((a, b) => a.version_normalized.localeCompare(b.version_normalized));
      const affected = new Set(own.map((m) => m.version_normalized));
      out.push({
        advisory,
        matches: own,
        patched: patchedVersions(heldBy.get(advisory.package_name) ?? [], affected),
        sources:
          advisory.origin === 'vendor'
            ? [{ name: 'vendor', remote_id: advisory.advisory_id }]
            : sources
                .filter((s) => s.advisory_id === advisory.id)
                .map((s) => ({ name: s.source, remote_id: s.remote_id })),
        customers: await this.customers(tenantId, advisory.package_name, own),
      });
    }
    return out;
  }

  /** Customers that downloaded an affected version, with the affected versions they downloaded. */
  private async customers(tenantId: string, name: string, matches: MatchRow[]) {
    const normalized = matches.map((m) => m.version_normalized);
    if (normalized.length === 0) return [];
    const label = new Map(matches.map((m) => [m.version_normalized, m.version]));
    const own = await store.downloadsOf(this.db, tenantId, name, normalized);
    const proxied = await this.db
      .selectFrom('proxy_downloads as d')
      .innerJoin('customers as c', 'c.id', 'd.customer_id')
      .select(['c.id as customer_id', 'c.name', 'd.version_normalized'])
      .where('d.tenant_id', '=', tenantId)
      .where('d.name', '=', name)
      .where('d.version_normalized', 'in', normalized)
      .groupBy(['c.id', 'c.name', 'd.version_normalized'])
      .execute();
    const byCustomer = new Map<string, AffectedCustomer>();
    for (const d of [...own, ...proxied]) {
      const entry = byCustomer.get(d.customer_id) ?? {
        customer_id: d.customer_id,
        name: d.name,
        versions: [],
      };
      const version = label.get(d.version_normalized) ?? d.version_normalized;
      if (!entry.versions.includes(version)) entry.versions.push(version);
      byCustomer.set(d.customer_id, entry);
    }
    return [...byCustomer.values()].sort((a, b) => a.name.localeCompare(b.name));
  }
}
