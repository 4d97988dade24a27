import type { Ctx, Deps } from '../../context.js';
import { nowIso } from '../../context.js';
import { conflict, notFound } from '../../errors.js';
import type { FieldError } from '../../errors.js';
import { parseConstraint } from '../../composer/semver/index.js';
import { applyExpiry } from '../customers/expiry.js';
import * as cgStore from './collection-grants-store.js';
import type { CollectionGrantView } from './collection-grants-store.js';
import { collectPackageIds, customerExists, findPackageId, validationError } from './lookups.js';
import type { CollectionGrantInput, GrantInput, ReplaceGrantsInput } from './schema.js';
import * as store from './store.js';
import type { AccessRow } from './store.js';
import { recordAudit } from '../audit/record.js';
import type { Db } from '../../infra/db/connection.js';
import { isUniqueViolation } from '../../infra/db/errors.js';
import type { PageWindow } from '../../infra/db/page.js';
import { transact } from '../../unit-of-work.js';
import type { Tx } from '../../unit-of-work.js';

type Activity = 'ACCESS_GRANTED' | 'ACCESS_REVOKED';

export const DEFAULT_CONSTRAINT = '*';

/** Composer's own parser decides; its message is the one the caller sees. */
export function constraintError(field: string, constraint: string): FieldError | null {
  try {
    parseConstraint(constraint);
    return null;
  } catch (err) {
    return { field, message: err instanceof Error ? err.message : String(err) };
  }
}

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
    await this.requireCustomer(ctx, customerId);
    return store.listCustomerAccess(this.db, ctx.tenantId, customerId, page);
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
    opts: { onExisting: 'conflict' | 'update' },
  ): Promise<{ access: AccessRow; created: boolean }> {
    await this.requireCustomer(ctx, customerId);
    const constraint = (input.constraint ?? DEFAULT_CONSTRAINT).trim();
    const errors: FieldError[] = [];
    const ids = await collectPackageIds(
      this.db,
      ctx.tenantId,
      [{ name: input.package, field: 'package' }],
      errors,
    );
    const bad = constraintError('constraint', constraint);
    if (bad) errors.push(bad);
    if (errors.length > 0) throw validationError(errors);
    const name = input.package.toLowerCase();
    const packageId = ids.get(name) ?? '';
    const existing = await store.findGrant(this.db, ctx.tenantId, customerId, packageId);
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
      await transact(this.deps, ctx, async (tx) => {
        const trx = tx.db;
        // `conflict` never overwrites: a grant that appeared since the check above fails the insert.
        if (opts.onExisting === 'conflict') await store.insertGrant(trx, row);
        else await store.upsertGrant(trx, row);
        await this.audit(trx, ctx, 'access.grant', customerId, {
          package: name,
          constraint,
          previous: existing?.constraint ?? null,
        });
        this.changed(tx, customerId, 'ACCESS_GRANTED', [name]);
      });
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
    await this.requireCustomer(ctx, customerId);
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
      const added: string[] = [];
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
        added.push(item.name);
      }
      const removed = gone.map((g) => g.name);
      await this.audit(trx, ctx, 'access.replace', customerId, {
        packages: items.map((i) => ({ package: i.name, constraint: i.constraint })),
        changed: added,
        removed,
      });
      this.changed(tx, customerId, 'ACCESS_GRANTED', added);
      this.changed(tx, customerId, 'ACCESS_REVOKED', removed);
    });
    return store.listCustomerAccess(this.db, ctx.tenantId, customerId, page);
  }

  async revoke(ctx: Ctx, customerId: string, packageName: string): Promise<void> {
    await this.requireCustomer(ctx, customerId);
    const name = packageName.toLowerCase();
    const packageId = await findPackageId(this.db, ctx.tenantId, name);
    if (!packageId) throw notFound('Package');
    await transact(this.deps, ctx, async (tx) => {
      if ((await store.deleteGrants(tx.db, ctx.tenantId, customerId, [packageId])) === 0) {
        throw notFound('Package access');
      }
      await this.audit(tx.db, ctx, 'access.revoke', customerId, { package: name });
      this.changed(tx, customerId, 'ACCESS_REVOKED', [name]);
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

  async listCollections(ctx: Ctx, customerId: string): Promise<CollectionGrantView[]> {
    await this.requireCustomer(ctx, customerId);
    return cgStore.listCollectionGrants(this.db, ctx.tenantId, customerId);
  }

  /** Grants a whole collection; its packages follow the collection's membership as it changes. */
  async grantCollection(ctx: Ctx, customerId: string, input: CollectionGrantInput) {
    await this.requireCustomer(ctx, customerId);
    const constraint = (input.constraint ?? DEFAULT_CONSTRAINT).trim();
    const collection = await cgStore.findCollection(this.db, ctx.tenantId, input.collection);
    const errors: FieldError[] = [];
    if (!collection) {
      errors.push({
        field: 'collection',
        message: `collection ${input.collection} does not exist`,
      });
    }
    const bad = constraintError('constraint', constraint);
    if (bad) errors.push(bad);
    if (!collection || errors.length > 0) throw validationError(errors);

    const [existing] = await cgStore.listCollectionGrants(
      this.db,
      ctx.tenantId,
      customerId,
      collection.id,
    );
    const granted_at = existing?.constraint === constraint ? existing.granted_at : nowIso();
    await transact(this.deps, ctx, async (tx) => {
      const trx = tx.db;
      await cgStore.upsertCollectionGrant(trx, {
        tenant_id: ctx.tenantId,
        customer_id: customerId,
        collection_id: collection.id,
        constraint,
        granted_at,
      });
      await this.audit(trx, ctx, 'access.grant_collection', customerId, {
        collection: collection.slug,
        constraint,
        previous: existing?.constraint ?? null,
      });
      const names = await cgStore.collectionPackageNames(trx, ctx.tenantId, collection.id);
      this.changed(tx, customerId, 'ACCESS_GRANTED', names);
    });
    const grant: CollectionGrantView = {
      slug: collection.slug,
      name: collection.name,
      constraint,
      granted_at,
    };
    return { grant, created: existing === undefined };
  }

  async revokeCollection(ctx: Ctx, customerId: string, slug: string): Promise<void> {
    await this.requireCustomer(ctx, customerId);
    const collection = await cgStore.findCollection(this.db, ctx.tenantId, slug);
    if (!collection) throw notFound('Collection');
    await transact(this.deps, ctx, async (tx) => {
      const trx = tx.db;
      if (!(await cgStore.deleteCollectionGrant(trx, ctx.tenantId, customerId, collection.id))) {
        throw notFound('Collection access');
      }
      await this.audit(trx, ctx, 'access.revoke_collection', customerId, {
        collection: collection.slug,
      });
      const names = await cgStore.collectionPackageNames(trx, ctx.tenantId, collection.id);
      this.changed(tx, customerId, 'ACCESS_REVOKED', names);
    });
  }

  private audit(
    db: Db,
    ctx: Ctx,
    action: string,
    customerId: string,
    summary: Record<string, unknown>,
  ): Promise<void> {
    return recordAudit(db, ctx, { action, target: { type: 'customer', id: customerId }, summary });
  }

  private async requireCustomer(ctx: Ctx, customerId: string): Promise<void> {
    if (!(await customerExists(this.db, ctx.tenantId, customerId))) throw notFound('Customer');
  }

  /** What the customer may see changed: the stamp moves and one event per package, after commit. */
  private changed(tx: Tx, customerId: string, activity: Activity, names: string[]): void {
    tx.accessChanged();
    const at = nowIso();
    for (const name of names) {
      tx.publish({
        type: 'customer.activity',
        tenantId: tx.ctx.tenantId,
        customerId,
        activity,
        package: name,
        version: null,
        at,
      });
    }
  }
}
