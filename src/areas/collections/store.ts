import { pageOf } from '../../infra/db/page.js';
import type { Selectable } from 'kysely';
import type { Db } from '../../infra/db/connection.js';
import type { CollectionsTable } from '../../infra/db/schema.js';

export type CollectionRow = Selectable<CollectionsTable>;

export async function listCollections(
  db: Db,
  tenantId: string,
  page: { offset: number; limit: number },
): Promise<{ rows: CollectionRow[]; total: number }> {
  const base = db.selectFrom('collections').where('tenant_id', '=', tenantId);
  return pageOf(base, (qb) => qb.selectAll().orderBy('slug'), page);
}

export async function findCollection(
  db: Db,
  tenantId: string,
  slug: string,
): Promise<CollectionRow | undefined> {
  return db
    .selectFrom('collections')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('slug', '=', slug)
    .executeTakeFirst();
}

/** Member package ids and names of several collections, in one query. */
export async function members(db: Db, tenantId: string, collectionIds: string[]) {
  if (collectionIds.length === 0) return [];
  return db
    .selectFrom('collection_packages as cp')
    .innerJoin('packages as p', 'p.id', 'cp.package_id')
    .select(['cp.collection_id', 'cp.package_id', 'p.name'])
    .where('cp.tenant_id', '=', tenantId)
    .where('cp.collection_id', 'in', collectionIds)
    .orderBy('p.name')
    .execute();
}

export async function insertCollection(db: Db, row: CollectionRow): Promise<void> {
  await db.insertInto('collections').values(row).execute();
}

export async function updateCollection(
  db: Db,
  tenantId: string,
  id: string,
  patch: { name?: string; updated_at: string },
): Promise<void> {
  await db
    .updateTable('collections')
    .set(patch)
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();
}

/** Removes the collection; its memberships and customer grants go with it (FK cascade). */
export async function deleteCollection(db: Db, tenantId: string, id: string): Promise<void> {
  await db
    .deleteFrom('collections')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();
}

export async function removeMembers(
  db: Db,
  tenantId: string,
  collectionId: string,
  packageIds: string[],
): Promise<void> {
  if (packageIds.length === 0) return;
  await db
    .deleteFrom('collection_packages')
    .where('tenant_id', '=', tenantId)
    .where('collection_id', '=', collectionId)
    .where('package_id', 'in', packageIds)
    .execute();
}

export async function addMembers(
  db: Db,
  tenantId: string,
  collectionId: string,
  packageIds: string[],
  addedAt: string,
): Promise<void> {
  if (packageIds.length === 0) return;
  await db
    .insertInto('collection_packages')
    .values(
      packageIds.map((package_id) => ({
        tenant_id: tenantId,
        collection_id: collectionId,
        package_id,
        added_at: addedAt,
      })),
    )
    .onConflict((oc) => oc.columns(['collection_id', 'package_id']).doNothing())
    .execute();
}

/** Customers holding a grant on the collection, to tell them their access changed. */
export async function grantees(db: Db, tenantId: string, collectionId: string) {
  const rows = await db
    .selectFrom('collection_grants')
    .select(['customer_id', 'constraint'])
    .where('tenant_id', '=', tenantId)
    .where('collection_id', '=', collectionId)
    .execute();
  return rows;
}
