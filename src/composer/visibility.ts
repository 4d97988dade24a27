import { sql } from 'kysely';
import type { Db } from '../infra/db/connection.js';
import { compiledPerTenant } from '../infra/db/compiled.js';
import { tryParseConstraint } from './semver/index.js';
import type { Constraint } from './semver/index.js';

/**
 * The one place that decides what a customer can see (docs/access.md): the union of its direct
 * grants and the grants of every collection holding a package, narrowed to the frozen set of a
 * FROZEN customer. The p2 documents and downloads, the public packages under
 * PROXY_VISIBILITY=granted, the frozen set a freeze takes, the advisories feed (through the
 * Composer service's package list), the customer portal and the admin constraint preview all
 * decide a version through `VersionGate`, and which packages through `customerVisibility`.
 */

/** Which versions of one package a customer may see: some grant admits it, and a freeze keeps it. */
export class VersionGate {
  constructor(
    private readonly constraints: readonly Constraint[],
    /** A FROZEN customer's frozen versions of the package (normalized); null when not frozen. */
    private readonly frozen: ReadonlySet<string> | null = null,
  ) {}

  /**
   * From stored grant constraints. One that no longer parses (a parser change, a hand-edited
   * row) was validated on write; it admits nothing, and `onInvalid` hears of it.
   */
  static of(
    constraints: readonly string[],
    frozen: ReadonlySet<string> | null = null,
    onInvalid?: (constraint: string) => void,
  ): VersionGate {
    const parsed: Constraint[] = [];
    for (const text of constraints) {
      const constraint = tryParseConstraint(text);
      if (constraint) parsed.push(constraint);
      else onInvalid?.(text);
    }
    return new VersionGate(parsed, frozen);
  }

  admits(normalized: string): boolean {
    if (this.frozen && !this.frozen.has(normalized)) return false;
    return this.constraints.some((c) => c.matches(normalized));
  }
}

/** One package a customer may see, and the gate of its versions. */
export interface VisiblePackage {
  packageId: string;
  name: string;
  gate: VersionGate;
}

/**
 * The packages a customer may see (all, or only `packageId`), each with its version gate: the
 * grants' union, and for a FROZEN customer only the packages it holds frozen versions of.
 */
export async function customerVisibility(
  db: Db,
  tenantId: string,
  customer: { id: string; status: string },
  options: {
    packageId?: string;
    onInvalid?: (constraint: string, packageName: string) => void;
  } = {},
): Promise<Map<string, VisiblePackage>> {
  const { packageId, onInvalid } = options;
  const access = await customerPackageAccess(db, tenantId, customer.id, packageId);
  const frozen =
    customer.status === 'FROZEN'
      ? await frozenVersions(db, tenantId, customer.id, packageId)
      : null;
  const out = new Map<string, VisiblePackage>();
  for (const a of access.values()) {
    const kept = frozen ? frozen.get(a.packageId) : null;
    if (kept === undefined) continue;
    const gate = VersionGate.of(a.constraints, kept, (c) => onInvalid?.(c, a.name));
    out.set(a.packageId, { packageId: a.packageId, name: a.name, gate });
  }
  return out;
}

/** What one customer may see of one package: its grant constraints and frozen versions. */
export interface PackageAccess {
  packageId: string;
  name: string;
  constraints: string[];
  /** Latest change to the grants that lead to this package (for Last-Modified). */
  changedAt: string;
}

/** Whose grants the union holds: one customer, several (GraphQL's batch loader), or one package. */
export type AccessScope =
  | { customerId: string; packageId?: string }
  | { customerIds: readonly string[] }
  | { packageId: string };

const noCollection = sql<string | null>`NULL`;

/**
 * Direct grants and collection grants as one `UNION ALL`, a row per grant that reaches a
 * package: `via_collection` is the collection's slug (null for a direct grant), `granted_at`
 * when the access started (through a collection: when both the grant and the membership exist).
 */
export function accessUnion(db: Db, tenantId: string, by: AccessScope) {
  let direct = db
    .selectFrom('grants as g')
    .innerJoin('packages as p', 'p.id', 'g.package_id')
    .select([
      'g.customer_id as customer_id',
      'p.id as package_id',
      'p.name as package',
      'g.constraint as constraint',
      'g.granted_at as granted_at',
      noCollection.as('via_collection'),
    ])
    .where('g.tenant_id', '=', tenantId);
  let via = db
    .selectFrom('collection_grants as cg')
    .innerJoin('collections as c', 'c.id', 'cg.collection_id')
    .innerJoin('collection_packages as cp', 'cp.collection_id', 'cg.collection_id')
    .innerJoin('packages as p', 'p.id', 'cp.package_id')
    .select((eb) => [
      'cg.customer_id as customer_id',
      'p.id as package_id',
      'p.name as package',
      'cg.constraint as constraint',
      eb
        .case()
        .when('cp.added_at', '>', eb.ref('cg.granted_at'))
        .then(eb.ref('cp.added_at'))
        .else(eb.ref('cg.granted_at'))
        .end()
        .$castTo<string>()
        .as('granted_at'),
      eb.ref('c.slug').$castTo<string | null>().as('via_collection'),
    ])
    .where('cg.tenant_id', '=', tenantId);
  if ('customerId' in by) {
    direct = direct.where('g.customer_id', '=', by.customerId);
    via = via.where('cg.customer_id', '=', by.customerId);
  } else if ('customerIds' in by) {
    direct = direct.where('g.customer_id', 'in', by.customerIds);
    via = via.where('cg.customer_id', 'in', by.customerIds);
  }
  const packageId = 'packageId' in by ? by.packageId : undefined;
  if (packageId !== undefined) {
    direct = direct.where('g.package_id', '=', packageId);
    via = via.where('cp.package_id', '=', packageId);
  }
  return direct.unionAll(via);
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
  return accessOf(db, tenantId, { customerId, packageId });
}

/**
 * The packages the customer of a token may see, each with its grants' constraints, read by the
 * token's digest: the inputs of the token's audience (audience.ts), read while the token itself
 * is authenticated. The same union as `accessUnion` without its joins to packages and
 * collections, which drop no row (their foreign keys cascade): the hot path of a token's first
 * request, where those joins cost more than everything else it reads.
 */
export async function tokenAccessConstraints(
  db: Db,
  tenantId: string,
  tokenDigest: string,
): Promise<Map<string, string[]>> {
  const rows = await tokenGrants(db, tenantId, tokenDigest);
  const out = new Map<string, string[]>();
  for (const { package_id, constraint } of rows) {
    const constraints = out.get(package_id);
    if (constraints) constraints.push(constraint);
    else out.set(package_id, [constraint]);
  }
  return out;
}

const tokenGrants = compiledPerTenant((db: Db, tenantId: string, tokenDigest: string) => {
  const owner = db
    .selectFrom('customer_tokens')
    .select('customer_id')
    .where('tenant_id', '=', tenantId)
    .where('token_digest', '=', tokenDigest);
  return db
    .selectFrom('grants as g')
    .select(['g.package_id as package_id', 'g.constraint as constraint'])
    .where('g.tenant_id', '=', tenantId)
    .where('g.customer_id', '=', owner)
    .unionAll(
      db
        .selectFrom('collection_grants as cg')
        .innerJoin('collection_packages as cp', 'cp.collection_id', 'cg.collection_id')
        .select(['cp.package_id as package_id', 'cg.constraint as constraint'])
        .where('cg.tenant_id', '=', tenantId)
        .where('cg.customer_id', '=', owner),
    );
}, 1);

async function accessOf(
  db: Db,
  tenantId: string,
  by: AccessScope,
): Promise<Map<string, PackageAccess>> {
  const rows = await db
    .selectFrom(accessUnion(db, tenantId, by).as('a'))
    .select(['a.package_id', 'a.package', 'a.constraint', 'a.granted_at'])
    .execute();
  const out = new Map<string, PackageAccess>();
  for (const row of rows) {
    const entry = out.get(row.package_id);
    if (entry) {
      entry.constraints.push(row.constraint);
      if (row.granted_at > entry.changedAt) entry.changedAt = row.granted_at;
    } else {
      out.set(row.package_id, {
        packageId: row.package_id,
        name: row.package,
        constraints: [row.constraint],
        changedAt: row.granted_at,
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
