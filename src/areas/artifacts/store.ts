import type { Updateable } from 'kysely';
import type { Db } from '../../infra/db/connection.js';
import type { PackagesTable } from '../../infra/db/schema.js';
import type { PackageRow, VersionRow } from '../packages/catalog.js';

/** Stores an uploaded version's row. */
export async function insertVersion(db: Db, row: VersionRow) {
  await db.insertInto('versions').values(row).execute();
}

/** Every version of the package, by number (to pick the newest). */
export function versionNumbers(db: Db, pkg: Pick<PackageRow, 'tenant_id' | 'id'>) {
  return db
    .selectFrom('versions')
    .select(['version', 'version_normalized', 'is_dev'])
    .where('tenant_id', '=', pkg.tenant_id)
    .where('package_id', '=', pkg.id)
    .execute();
}

/** Records an upload on the package row: its newest version, description and status. */
export async function markUploaded(
  db: Db,
  pkg: Pick<PackageRow, 'tenant_id' | 'id'>,
  set: Updateable<PackagesTable>,
) {
  await db
    .updateTable('packages')
    .set(set)
    .where('tenant_id', '=', pkg.tenant_id)
    .where('id', '=', pkg.id)
    .execute();
}
