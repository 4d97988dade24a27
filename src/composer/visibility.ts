import type { Db } from '../infra/db/connection.js';

/** What one customer may see of one package: its grant constraints and frozen versions. */
export interface PackageAccess {
  packageId: string;
  name: string;
  constraints: string[];
  /** Latest change to the grants that lead to this package (for Last-Modified). */
  changedAt: string;
}

/**
 * Every package granted to a customer, directly or through a collection, with the constraints
 * of each grant. `packageId` narrows it to one package (the hot path of the p2 route).
 */
export async function customerPackageAccess(
  db: Db,
  tenantId: string,
  customerId: string,
  packageId?: string,
): Promise<Map<string, PackageAccess>> {
  let direct = db
    .selectFrom('grants as g')
    .innerJoin('packages as p', 'p.id', 'g.package_id')
    .select(['p.id', 'p.name', 'g.constraint', 'g.granted_at as changed_at'])
    .where('g.tenant_id', '=', tenantId)
    .where('g.customer_id', '=', customerId);
  let viaCollection = db
    .selectFrom('collection_grants as cg')
    .innerJoin('collection_packages as cp', 'cp.collection_id', 'cg.collection_id')
    .innerJoin('packages as p', 'p.id', 'cp.package_id')
    .select(['p.id', 'p.name', 'cg.constraint', 'cp.added_at as changed_at'])
    .where('cg.tenant_id', '=', tenantId)
    .where('cg.customer_id', '=', customerId);
  if (packageId) {
    direct = direct.where('g.package_id', '=', packageId);
    viaCollection = viaCollection.where('cp.package_id', '=', packageId);
  }
  const rows = await direct.unionAll(viaCollection).execute();
  const out = new Map<string, PackageAccess>();
  for (const row of rows) {
    const entry = out.get(row.id);
    if (entry) {
      entry.constraints.push(row.constraint);
      if (row.changed_at > entry.changedAt) entry.changedAt = row.changed_at;
    } else {
      out.set(row.id, {
        packageId: row.id,
        name: row.name,
        constraints: [row.constraint],
        changedAt: row.changed_at,
      });
    }
  }
  return out;
}

/** Frozen versions of a FROZEN customer, per package id. */
export async function frozenVersions(
  db: Db,
  tenantId: string,
  customerId: string,
  packageId?: string,
): Promise<Map<string, Set<string>>> {
  let query = db
    .selectFrom('frozen_versions')
    .select(['package_id', 'version_normalized'])
    .where('tenant_id', '=', tenantId)
    .where('customer_id', '=', customerId);
  if (packageId) query = query.where('package_id', '=', packageId);
  const out = new Map<string, Set<string>>();
  for (const row of await query.execute()) {
    const set = out.get(row.package_id) ?? new Set<string>();
    set.add(row.version_normalized);
    out.set(row.package_id, set);
  }
  return out;
}
