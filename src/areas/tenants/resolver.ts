import { AppError } from '../../errors.js';
import type { Db } from '../../infra/db/connection.js';
import { RESERVED_SUBDOMAINS, hostTarget } from './host.js';

interface Known {
  id: string;
  status: string;
}

/** How long a node trusts what it read of a tenant; a suspension reaches every node within it. */
const TRUST_MS = 1000;
const MAX_KNOWN = 10_000;

/**
 * The tenant of a request in the Cloud edition, from its Host header: 400 TENANT_REQUIRED
 * without a tenant label, 404 TENANT_NOT_FOUND for an unknown or deleted one, 403
 * TENANT_SUSPENDED for a suspended one. Lookups are remembered for a second, so a cached p2
 * answer costs one map read more, and a change made on another node shows within that second.
 */
export class TenantResolver {
  private readonly known = new Map<string, Known | null>();
  private readonly checkedAt = new Map<string, number>();
  /** Raw Host header -> tenant label (null: no tenant), for `peek`. */
  private readonly labels = new Map<string, string | null>();

  constructor(
    private readonly db: Db,
    private readonly baseDomain: string,
  ) {}

  async resolve(host: string | undefined): Promise<{ tenantId: string; subdomain: string }> {
    const target = hostTarget(host, this.baseDomain);
    if (target.kind === 'none') {
      throw new AppError(
        'TENANT_REQUIRED',
        `Use the host of your registry: <your-subdomain>.${this.baseDomain}`,
      );
    }
    if (target.kind === 'unknown' || RESERVED_SUBDOMAINS.has(target.label)) throw tenantNotFound();
    const tenant = await this.lookup(target.label);
    if (!tenant || tenant.status === 'deleted') throw tenantNotFound();
    if (tenant.status === 'suspended') {
      throw new AppError('TENANT_SUSPENDED', 'This registry is suspended');
    }
    return { tenantId: tenant.id, subdomain: target.label };
  }

  /**
   * The tenant of `host` when this node knows it to be active right now, without waiting; null
   * otherwise (the p2 fast path then leaves the request to the route, which resolves it).
   */
  peek(host: string | undefined): string | null {
    if (!host) return null;
    // The raw Host header's label, remembered: this runs before every cached p2 answer.
    let label = this.labels.get(host);
    if (label === undefined) {
      const target = hostTarget(host, this.baseDomain);
      label = target.kind === 'tenant' ? target.label : null;
      if (this.labels.size >= MAX_KNOWN) this.labels.clear();
      this.labels.set(host, label);
    }
    if (label === null) return null;
    const at = this.checkedAt.get(label);
    if (at === undefined || Date.now() - at >= TRUST_MS) return null;
    const known = this.known.get(label);
    return known?.status === 'active' ? known.id : null;
  }

  /** Forgets what this node knows of a subdomain (after a change made here). */
  forget(subdomain: string): void {
    this.known.delete(subdomain);
    this.checkedAt.delete(subdomain);
  }

  private async lookup(label: string): Promise<Known | null> {
    const at = this.checkedAt.get(label);
    if (at !== undefined && Date.now() - at < TRUST_MS) return this.known.get(label) ?? null;
    // The tenants table is the platform's own: it carries no tenant_id to pin.
    const row = await this.db
      .selectFrom('tenants')
      .select(['id', 'status'])
      .where('subdomain', '=', label)
      .executeTakeFirst();
    if (this.known.size >= MAX_KNOWN) {
      this.known.clear();
      this.checkedAt.clear();
    }
    const found = row ? { id: row.id, status: row.status } : null;
    this.known.set(label, found);
    this.checkedAt.set(label, Date.now());
    return found;
  }
}

const tenantNotFound = () => new AppError('TENANT_NOT_FOUND', 'No registry answers on this host');
