import type { Db } from '../../infra/db/connection.js';

/** Sets a package's sync status; with `onlyFrom`, only when it is that status now. */
export async function setSyncStatus(
  db: Db,
  pkg: { tenant_id: string; id: string },
  status: string,
  onlyFrom?: string,
) {
  let query = db
    .updateTable('packages')
    .set({ sync_status: status })
    .where('tenant_id', '=', pkg.tenant_id)
    .where('id', '=', pkg.id);
  if (onlyFrom !== undefined) query = query.where('sync_status', '=', onlyFrom);
  await query.execute();
}
