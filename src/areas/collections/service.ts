import type { Ctx, Deps } from '../../context.js';
import { nowIso } from '../../context.js';
import { conflict, notFound } from '../../errors.js';
import type { FieldError } from '../../errors.js';
import { newId } from '../../infra/crypto.js';
import { collectPackageIds, resolvePackageIds, validationError } from '../access/lookups.js';
import type { CreateCollectionInput, UpdateCollectionInput } from './schema.js';
import * as store from './store.js';
import type { CollectionRow } from './store.js';
import { isUniqueViolation } from '../../infra/db/errors.js';
import { transact } from '../../unit-of-work.js';
import type { Tx } from '../../unit-of-work.js';

/** A collection with its member package names, sorted. */
export interface CollectionView {
  row: CollectionRow;
  packages: string[];
}

const named = (field: string, names: string[] = []) =>
  names.map((name, i) => ({ name, field: `${field}.${i}` }));

/**
 * Collections group packages so access can be granted to all of them at once. Customers granted a
 * collection see its packages as they are now: membership changes apply at once.
 */
export class CollectionService {
  constructor(private readonly deps: Deps) {}

  private get db() {
    return this.deps.db;
  }

  async list(ctx: Ctx, page: { offset: number; limit: number }) {
    const { rows, total } = await store.listCollections(this.db, ctx.tenantId, page);
    return { views: await this.withPackages(ctx, rows), total };
  }

  async get(ctx: Ctx, slug: string): Promise<CollectionView> {
    const [view] = await this.withPackages(ctx, [await this.find(ctx, slug)]);
    if (!view) throw notFound('Collection');
    return view;
  }

  async create(ctx: Ctx, input: CreateCollectionInput): Promise<CollectionView> {
    const ids = await resolvePackageIds(this.db, ctx.tenantId, named('packages', input.packages));
    const now = nowIso();
    const row: CollectionRow = {
      id: newId(),
      tenant_id: ctx.tenantId,
      slug: input.slug,
      name: input.name,
      created_at: now,
      updated_at: now,
    };
    try {
      await transact(this.deps, ctx, async ({ db: trx, audit }) => {
        await store.insertCollection(trx, row);
        await store.addMembers(trx, ctx.tenantId, row.id, [...new Set(ids.values())], now);
        await audit({
          action: 'collection.create',
          target: { type: 'collection', id: row.slug },
          summary: { name: row.name, packages: [...ids.keys()].sort() },
        });
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw conflict(`A collection with slug "${input.slug}" already exists`);
      }
      throw err;
    }
    return { row, packages: [...ids.keys()].sort() };
  }

  /** `packages` replaces the set first, then `add_packages` and `remove_packages` apply. */
  async update(ctx: Ctx, slug: string, input: UpdateCollectionInput): Promise<CollectionView> {
    const row = await this.find(ctx, slug);
    const errors: FieldError[] = [];
    const lookup = (field: string, names?: string[]) =>
      collectPackageIds(this.db, ctx.tenantId, named(field, names), errors);
    const replace = await lookup('packages', input.packages);
    const add = await lookup('add_packages', input.add_packages);
    const remove = await lookup('remove_packages', input.remove_packages);
    if (errors.length > 0) throw validationError(errors);

    const now = nowIso();
    await transact(this.deps, ctx, async (tx) => {
      const trx = tx.db;
      const current = await store.members(trx, ctx.tenantId, [row.id]);
      const target = new Set(input.packages ? replace.values() : current.map((m) => m.package_id));
      for (const id of add.values()) target.add(id);
      for (const id of remove.values()) target.delete(id);
      const had = new Set(current.map((m) => m.package_id));
      const gone = current.filter((m) => !target.has(m.package_id));
      const added = [...target].filter((id) => !had.has(id));
      await store.removeMembers(
        trx,
        ctx.tenantId,
        row.id,
        gone.map((m) => m.package_id),
      );
      await store.addMembers(trx, ctx.tenantId, row.id, added, now);
      await store.updateCollection(trx, ctx.tenantId, row.id, {
        name: input.name,
        updated_at: now,
      });
      await tx.audit({
        action: 'collection.update',
        target: { type: 'collection', id: row.slug },
        summary: { ...input },
      });
      const nameOf = new Map([...replace, ...add].map(([name, id]) => [id, name]));
      await this.announce(
        tx,
        row.id,
        added.map((id) => nameOf.get(id) ?? id),
        gone.map((m) => m.name),
      );
    });
    return this.get(ctx, slug);
  }

  async delete(ctx: Ctx, slug: string): Promise<void> {
    const row = await this.find(ctx, slug);
    const { packages } = await this.get(ctx, slug);
    const customers = await store.grantees(this.db, ctx.tenantId, row.id);
    await transact(this.deps, ctx, async (tx) => {
      await store.deleteCollection(tx.db, ctx.tenantId, row.id);
      await tx.audit({
        action: 'collection.delete',
        target: { type: 'collection', id: row.slug },
        summary: { packages },
      });
      if (customers.length > 0) tx.accessChanged();
      this.publish(tx, customers, 'ACCESS_REVOKED', packages);
    });
  }

  private async find(ctx: Ctx, slug: string): Promise<CollectionRow> {
    const row = await store.findCollection(this.db, ctx.tenantId, slug);
    if (!row) throw notFound('Collection');
    return row;
  }

  private async withPackages(ctx: Ctx, rows: CollectionRow[]): Promise<CollectionView[]> {
    const all = await store.members(
      this.db,
      ctx.tenantId,
      rows.map((r) => r.id),
    );
    return rows.map((row) => ({
      row,
      packages: all.filter((m) => m.collection_id === row.id).map((m) => m.name),
    }));
  }

  /**
   * Customers granted the collection gained or lost packages: what they may see changed, and
   * subscribers hear of it, once the membership change commits.
   */
  private async announce(tx: Tx, collectionId: string, added: string[], gone: string[]) {
    if (added.length === 0 && gone.length === 0) return;
    const customers = await store.grantees(tx.db, tx.ctx.tenantId, collectionId);
    if (customers.length > 0) tx.accessChanged();
    this.publish(tx, customers, 'ACCESS_GRANTED', added);
    this.publish(tx, customers, 'ACCESS_REVOKED', gone);
  }

  private publish(
    tx: Tx,
    customers: { customer_id: string; constraint: string }[],
    activity: 'ACCESS_GRANTED' | 'ACCESS_REVOKED',
    packages: string[],
  ): void {
    const at = nowIso();
    const type = activity === 'ACCESS_GRANTED' ? 'access.granted' : 'access.revoked';
    // Each customer's collection grant carries its own constraint (docs/webhooks-outgoing.md).
    for (const { customer_id: customerId, constraint } of customers) {
      for (const pkg of packages) {
        tx.emit(type, { customer_id: customerId, package: pkg, constraint });
        tx.publish({
          type: 'customer.activity',
          tenantId: tx.ctx.tenantId,
          customerId,
          activity,
          package: pkg,
          version: null,
          at,
        });
      }
    }
  }
}
