import type { Ctx, Deps } from '../../context.js';
import { nowIso } from '../../context.js';
import { conflict, notFound } from '../../errors.js';
import type { FieldError } from '../../errors.js';
import { applyExpiry } from '../customers/expiry.js';
import type { CollectionGrantView } from './collection-grants-store.js';
import { PACKAGE_NAME_RE, collectPackageIds, findPackageId, validationError } from './lookups.js';
import { grantPublic, listPublicGrants, publicGrantsOn, revokePublic } from './public-grants.js';
import type { CollectionGrantInput, GrantInput, ReplaceGrantsInput } from './schema.js';
import * as store from './store.js';
import type { AccessRow } from './store.js';
import { isUniqueViolation } from '../../infra/db/errors.js';
import type { PageWindow } from '../../infra/db/page.js';
import type { Db } from '../../infra/db/connection.js';
import { transact } from '../../unit-of-work.js';

import * as collectionAccess from './collection-access.js';
import { accessChangedFor, auditCustomer, requireCustomer } from './grant-effects.js';
import { DEFAULT_CONSTRAINT, constraintError } from './constraint.js';
export { DEFAULT_CONSTRAINT, constraintError };

/** POST of a package the customer already holds directly: 409, pointing at the ways to change it. */
function alreadyGranted(name: string, customerId: string, constraint?: string) {
  const current = constraint === undefined ? '' : ` with constraint ${constraint}`;
  return conflict(
    `Package ${name} is already granted to customer ${customerId}${current}; to change the ` +
      `constraint use PUT /api/v1/customers/${customerId}/packages, or DELETE ` +
      `/api/v1/customers/${customerId}/packages/${name} and POST again`,
  );
}

/**
 * Package access: direct grants (customer, package, constraint) and collection grants (customer,
 * collection, constraint). What a customer may install is the union of both (visibility.ts).
 */
export class AccessService {
  constructor(private readonly deps: Deps) {}

  private get db() {
    return this.deps.db;
  }

  /** One page of the customer's access: direct grants and packages reached through collections. */
  async list(
    ctx: Ctx,
    customerId: string,
    page: PageWindow,
  ): Promise<{ rows: AccessRow[]; total: number }> {
    await requireCustomer(this.db, ctx, customerId);
    const registry = await store.listCustomerAccess(this.db, ctx.tenantId, customerId, page);
    if (!publicGrantsOn(this.deps.config)) return registry;
    // Public grants follow the registry's access in the listing.
    const publicRows = await listPublicGrants(this.db, ctx.tenantId, customerId);
    const start = Math.max(0, page.offset - registry.total);
    const room = Math.max(0, page.limit - registry.rows.length);
    return {
      rows: [...registry.rows, ...publicRows.slice(start, start + room)],
      total: registry.total + publicRows.length,
    };
  }

  /** `name` when it is a public package grantable by name (PROXY_VISIBILITY=granted), else null. */
  private async publicName(db: Db, ctx: Ctx, input: string): Promise<string | null> {
    if (!publicGrantsOn(this.deps.config)) return null;
    const name = input.toLowerCase();
    if (!PACKAGE_NAME_RE.test(name)) return null;
    return (await findPackageId(db, ctx.tenantId, name)) ? null : name;
  }

  /**
   * GraphQL `grantPackageAccess`: each grant added, or its constraint updated when the customer
   * already has it, all in one unit of work: one that fails leaves none of them committed.
   */
  async grantEach(ctx: Ctx, customerId: string, inputs: GrantInput[]): Promise<void> {
    await transact(this.deps, ctx, async (tx) => {
      for (const input of inputs) {
        await this.grant(ctx, customerId, input, { onExisting: 'update', within: tx.db });
      }
    });
  }

  /**
   * Adds one direct grant. What happens when the customer already has a direct grant for the
   * package is the caller's explicit choice: `conflict` (REST POST) answers 409 CONFLICT and
   * changes nothing; `update` (GraphQL grantPackageAccess) sets the new constraint. A package
   * reached only through a collection has no direct grant, so it is added either way.
   */
  async grant(
    ctx: Ctx,
    customerId: string,
    input: GrantInput,
    /** `within`: the transaction of a unit this grant joins (`grantEach`). */
    opts: { onExisting: 'conflict' | 'update'; within?: Db },
  ): Promise<{ access: AccessRow; created: boolean }> {
    const db = opts.within ?? this.db;
    await requireCustomer(db, ctx, customerId);
    const constraint = (input.constraint ?? DEFAULT_CONSTRAINT).trim();
    const publicName = await this.publicName(db, ctx, input.package);
    if (publicName) {
      const bad = constraintError('constraint', constraint);
      if (bad) throw validationError([bad]);
      return grantPublic(this.deps, ctx, customerId, publicName, constraint, opts);
    }
    const errors: FieldError[] = [];
    const ids = await collectPackageIds(
      db,
      ctx.tenantId,
      [{ name: input.package, field: 'package' }],
      errors,
    );
    const bad = constraintError('constraint', constraint);
    if (bad) errors.push(bad);
    if (errors.length > 0) throw validationError(errors);
    const name = input.package.toLowerCase();
    const packageId = ids.get(name) ?? '';
    const existing = await store.findGrant(db, ctx.tenantId, customerId, packageId);
    if (existing && opts.onExisting === 'conflict')
      throw alreadyGranted(name, customerId, existing.constraint);
    // granted_at moves whenever the grant changes: Last-Modified on the composer side follows it.
    const granted_at = existing?.constraint === constraint ? existing.granted_at : nowIso();
    const row = {
      tenant_id: ctx.tenantId,
      customer_id: customerId,
      package_id: packageId,
      constraint,
      granted_at,
    };
    try {
      await transact(
        this.deps,
        ctx,
        async (tx) => {
          const trx = tx.db;
          // `conflict` never overwrites: a grant that appeared since the check above fails the insert.
          if (opts.onExisting === 'conflict') await store.insertGrant(trx, row);
          else await store.upsertGrant(trx, row);
          await auditCustomer(trx, 'access.grant', customerId, {
            package: name,
            constraint,
            previous: existing?.constraint ?? null,
          });
          accessChangedFor(tx, customerId, 'ACCESS_GRANTED', [{ name, constraint }]);
        },
        { within: opts.within },
      );
    } catch (err) {
      if (opts.onExisting === 'conflict' && isUniqueViolation(err))
        throw alreadyGranted(name, customerId);
      throw err;
    }
    const access: AccessRow = { package: name, constraint, granted_at, via_collection: null };
    return { access, created: existing === undefined };
  }

  /**
   * Replaces the direct grants in one transaction; any invalid item leaves everything as it was.
   * Answers the `page` window of the resulting access list.
   */
  async replace(
    ctx: Ctx,
    customerId: string,
    input: ReplaceGrantsInput,
    page: PageWindow,
  ): Promise<{ rows: AccessRow[]; total: number }> {
    await requireCustomer(this.db, ctx, customerId);
    const items = input.packages.map((p, i) => ({
      name: p.package.toLowerCase(),
      constraint: (p.constraint ?? DEFAULT_CONSTRAINT).trim(),
      field: `packages.${i}`,
    }));
    const errors: FieldError[] = [];
    const ids = await collectPackageIds(
      this.db,
      ctx.tenantId,
      items.map((i) => ({ name: i.name, field: `${i.field}.package` })),
      errors,
    );
    const seen = new Set<string>();
    for (const item of items) {
      if (seen.has(item.name)) {
        errors.push({ field: `${item.field}.package`, message: `${item.name} is listed twice` });
      }
      seen.add(item.name);
      const bad = constraintError(`${item.field}.constraint`, item.constraint);
      if (bad) errors.push(bad);
    }
    if (errors.length > 0) throw validationError(errors);

    const now = nowIso();
    await transact(this.deps, ctx, async (tx) => {
      const trx = tx.db;
      const current = await store.directGrants(trx, ctx.tenantId, customerId);
      const wanted = new Set(ids.values());
      const gone = current.filter((g) => !wanted.has(g.package_id));
      await store.deleteGrants(
        trx,
        ctx.tenantId,
        customerId,
        gone.map((g) => g.package_id),
      );
      const before = new Map(current.map((g) => [g.package_id, g]));
      const added: { name: string; constraint: string }[] = [];
      for (const item of items) {
        const packageId = ids.get(item.name) ?? '';
        const old = before.get(packageId);
        if (old?.constraint === item.constraint) continue;
        await store.upsertGrant(trx, {
          tenant_id: ctx.tenantId,
          customer_id: customerId,
          package_id: packageId,
          constraint: item.constraint,
          granted_at: now,
        });
        added.push({ name: item.name, constraint: item.constraint });
      }
      const removed = gone.map((g) => ({ name: g.name, constraint: g.constraint }));
      await auditCustomer(trx, 'access.replace', customerId, {
        packages: items.map((i) => ({ package: i.name, constraint: i.constraint })),
        changed: added.map((a) => a.name),
        removed: removed.map((r) => r.name),
      });
      accessChangedFor(tx, customerId, 'ACCESS_GRANTED', added);
      accessChangedFor(tx, customerId, 'ACCESS_REVOKED', removed);
    });
    return store.listCustomerAccess(this.db, ctx.tenantId, customerId, page);
  }

  async revoke(ctx: Ctx, customerId: string, packageName: string): Promise<void> {
    await requireCustomer(this.db, ctx, customerId);
    const name = packageName.toLowerCase();
    const packageId = await findPackageId(this.db, ctx.tenantId, name);
    if (!packageId && publicGrantsOn(this.deps.config)) {
      return revokePublic(this.deps, ctx, customerId, name);
    }
    if (!packageId) throw notFound('Package');
    await transact(this.deps, ctx, async (tx) => {
      const old = await store.findGrant(tx.db, ctx.tenantId, customerId, packageId);
      if ((await store.deleteGrants(tx.db, ctx.tenantId, customerId, [packageId])) === 0) {
        throw notFound('Package access');
      }
      await auditCustomer(tx.db, 'access.revoke', customerId, { package: name });
      accessChangedFor(tx, customerId, 'ACCESS_REVOKED', [
        { name, constraint: old?.constraint ?? null },
      ]);
    });
  }

  /** Reverse lookup: who can reach a package, and how. */
  async customersOf(ctx: Ctx, packageName: string, page: { offset: number; limit: number }) {
    const packageId = await findPackageId(this.db, ctx.tenantId, packageName);
    if (!packageId) throw notFound('Package');
    const { rows, total } = await store.listPackageCustomers(
      this.db,
      ctx.tenantId,
      packageId,
      page,
    );
    const fresh = await Promise.all(
      rows.map(async ({ constraint, granted_at, via_collection, ...customer }) => ({
        customer: await applyExpiry(this.deps, customer),
        constraint,
        granted_at,
        via_collection,
      })),
    );
    return { rows: fresh, total };
  }

  listCollections(ctx: Ctx, customerId: string): Promise<CollectionGrantView[]> {
    return collectionAccess.listCollections(this.deps, ctx, customerId);
  }

  /** Grants a whole collection; its packages follow the collection's membership as it changes. */
  grantCollection(ctx: Ctx, customerId: string, input: CollectionGrantInput) {
    return collectionAccess.grantCollection(this.deps, ctx, customerId, input);
  }

  revokeCollection(ctx: Ctx, customerId: string, slug: string): Promise<void> {
    return collectionAccess.revokeCollection(this.deps, ctx, customerId, slug);
  }
}
