import type { Selectable } from 'kysely';
import type { Db } from '../../infra/db/connection.js';
import type { CollectionGrantsTable } from '../../infra/db/schema.js';

export type CollectionGrantRow = Selectable<CollectionGrantsTable>;

/** A collection grant with the collection's slug and name, as the API shows it. */
export interface CollectionGrantView {
  slug: string;
  name: string;
  constraint: string;
  granted_at: string;
}

export async function findCollection(db: Db, tenantId: string, slug: string) {
  return db
    .selectFrom('collections')
    .select(['id', 'slug', 'name'])
    .where('tenant_id', '=', tenantId)
    .where('slug', '=', slug)
    .executeTakeFirst();
}

export async function listCollectionGrants(
  db: Db,
  tenantId: string,
  customerId: string,
  collectionId?: string,
): Promise<CollectionGrantView[]> {
  let query = db
    .selectFrom('collection_grants as cg')
    .innerJoin('collections as c', 'c.id', 'cg.collection_id')
    .select(['c.slug', 'c.name', 'cg.constraint', 'cg.granted_at'])
    .where('cg.tenant_id', '=', tenantId)
    .where('cg.customer_id', '=', customerId);
  if (collectionId !== undefined) query = query.where('cg.collection_id', '=', collectionId);
  return query.orderBy('c.slug').execute();
}

export async function upsertCollectionGrant(db: Db, row: CollectionGrantRow): Promise<void> {
  await db
    .insertInto('collection_grants')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['customer_id', 'collection_id'])
        .doUpdateSet({ constraint: row.constraint, granted_at: row.granted_at }),
    )
    .execute();
}

export async function deleteCollectionGrant(
  db: Db,
  tenantId: string,
  customerId: string,
  collectionId: string,
): Promise<{ constraint: string } | undefined> {
  return db
    .deleteFrom('collection_grants')
    .where('tenant_id', '=', tenantId)
    .where('customer_id', '=', customerId)
    .where('collection_id', '=', collectionId)
    .returning('constraint')
    .executeTakeFirst();
}

export async function collectionPackageNames(
  db: Db,
  tenantId: string,
  collectionId: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('collection_packages as cp')
    .innerJoin('packages as p', 'p.id', 'cp.package_id')
    .select('p.name')
    .where('cp.tenant_id', '=', tenantId)
    .where('cp.collection_id', '=', collectionId)
    .orderBy('p.name')
    .execute();
  return rows.map((r) => r.name);
}
