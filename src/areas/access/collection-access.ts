import type { Ctx, Deps } from '../../context.js';
import { nowIso } from '../../context.js';
import { notFound } from '../../errors.js';
import type { FieldError } from '../../errors.js';
import { transact } from '../../unit-of-work.js';
import * as cgStore from './collection-grants-store.js';
import type { CollectionGrantView } from './collection-grants-store.js';
import { validationError } from './lookups.js';
import type { CollectionGrantInput } from './schema.js';
import { accessChangedFor, auditCustomer, requireCustomer } from './grant-effects.js';
import { DEFAULT_CONSTRAINT, constraintError } from './constraint.js';

/** Collection grants: a customer sees a collection's packages as its membership changes. */
export async function listCollections(
  deps: Deps,
  ctx: Ctx,
  customerId: string,
): Promise<CollectionGrantView[]> {
  await requireCustomer(deps.db, ctx, customerId);
  return cgStore.listCollectionGrants(deps.db, ctx.tenantId, customerId);
}

/** Grants a whole collection; its packages follow the collection's membership as it changes. */
export async function grantCollection(
  deps: Deps,
  ctx: Ctx,
  customerId: string,
  input: CollectionGrantInput,
) {
  await requireCustomer(deps.db, ctx, customerId);
  const constraint = (input.constraint ?? DEFAULT_CONSTRAINT).trim();
  const collection = await cgStore.findCollection(deps.db, ctx.tenantId, input.collection);
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
    deps.db,
    ctx.tenantId,
    customerId,
    collection.id,
  );
  const granted_at = existing?.constraint === constraint ? existing.granted_at : nowIso();
  await transact(deps, ctx, async (tx) => {
    const trx = tx.db;
    await cgStore.upsertCollectionGrant(trx, {
      tenant_id: ctx.tenantId,
      customer_id: customerId,
      collection_id: collection.id,
      constraint,
      granted_at,
    });
    await auditCustomer(trx, 'access.grant_collection', customerId, {
      collection: collection.slug,
      constraint,
      previous: existing?.constraint ?? null,
    });
    const names = await cgStore.collectionPackageNames(trx, ctx.tenantId, collection.id);
    accessChangedFor(
      tx,
      customerId,
      'ACCESS_GRANTED',
      names.map((n) => ({ name: n, constraint })),
    );
  });
  const grant: CollectionGrantView = {
    slug: collection.slug,
    name: collection.name,
    constraint,
    granted_at,
  };
  return { grant, created: existing === undefined };
}

export async function revokeCollection(
  deps: Deps,
  ctx: Ctx,
  customerId: string,
  slug: string,
): Promise<void> {
  await requireCustomer(deps.db, ctx, customerId);
  const collection = await cgStore.findCollection(deps.db, ctx.tenantId, slug);
  if (!collection) throw notFound('Collection');
  await transact(deps, ctx, async (tx) => {
    const trx = tx.db;
    const gone = await cgStore.deleteCollectionGrant(trx, ctx.tenantId, customerId, collection.id);
    if (!gone) throw notFound('Collection access');
    await auditCustomer(trx, 'access.revoke_collection', customerId, {
      collection: collection.slug,
    });
    const names = await cgStore.collectionPackageNames(trx, ctx.tenantId, collection.id);
    accessChangedFor(
      tx,
      customerId,
      'ACCESS_REVOKED',
      names.map((n) => ({ name: n, constraint: gone.constraint })),
    );
  });
}
