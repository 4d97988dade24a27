import { pageOf } from '../../infra/db/page.js';
import type { Ctx, Deps } from '../../context.js';
import { notFound } from '../../errors.js';
import { findPackageByName } from '../packages/catalog.js';
import type { DeliveryRow } from './store.js';

interface Window {
  offset: number;
  limit: number;
}

/** Reads the recorded webhook deliveries, newest first. */
export class WebhookDeliveryService {
  constructor(private readonly deps: Deps) {}

  /** Deliveries that matched one package (404 for an unknown package). */
  async forPackage(
    ctx: Ctx,
    name: string,
    window: Window,
  ): Promise<{ rows: DeliveryRow[]; total: number }> {
    const pkg = await findPackageByName(this.deps.db, ctx.tenantId, name.toLowerCase());
    if (!pkg) throw notFound(`Package ${name}`);
    const base = this.deps.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_delivery_packages as p', 'p.delivery_id', 'd.id')
      .where('d.tenant_id', '=', ctx.tenantId)
      .where('p.tenant_id', '=', ctx.tenantId)
      .where('p.package_id', '=', pkg.id);
    return pageOf(
      base,
      (qb) => qb.selectAll('d').orderBy('d.received_at', 'desc').orderBy('d.id', 'desc'),
      window,
    );
  }

  /** Every delivery of the tenant, refused and ignored ones included. */
  async list(
    ctx: Ctx,
    filter: Window & { provider?: string },
  ): Promise<{ rows: DeliveryRow[]; total: number }> {
    let base = this.deps.db.selectFrom('webhook_deliveries').where('tenant_id', '=', ctx.tenantId);
    if (filter.provider) base = base.where('provider', '=', filter.provider);
    return pageOf(
      base,
      (qb) => qb.selectAll().orderBy('received_at', 'desc').orderBy('id', 'desc'),
      filter,
    );
  }
}
