import { conflict } from '../../errors.js';
import type { Db } from '../../infra/db/connection.js';
import { findPackageById } from './store.js';
import type { PackageRow } from './store.js';

/**
 * The one rule of which packages may be synced (or validated) on their own, for every way a sync
 * is asked for (`POST /packages/{name}/sync`, `POST /tasks`, GraphQL): a monorepo child may not,
 * its parent's sync refreshes it. 409 CONFLICT naming the parent.
 */
export async function assertSyncableAlone(db: Db, row: PackageRow): Promise<void> {
  const child = await db
    .selectFrom('monorepo_children')
    .select('parent_id')
    .where('tenant_id', '=', row.tenant_id)
    .where('package_id', '=', row.id)
    .executeTakeFirst();
  if (!child) return;
  const parent = await findPackageById(db, row.tenant_id, child.parent_id);
  const name = parent?.name ?? child.parent_id;
  throw conflict(
    `${row.name} is a child of the monorepo ${name}: sync ${parent?.name ?? 'the parent'} instead`,
  );
}
