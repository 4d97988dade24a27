import type { Db } from '../../infra/db/connection.js';
import { newId } from '../../infra/crypto.js';

/**
 * What the proxy publishes to the advisories area: the public versions it holds (to scan) and its
 * alert list (where a scan reports a held version newly affected). Other areas read and write
 * these here, never through the proxy's store.
 */

/**
 * Every version held in the kept metadata of a cache tenant, for readers such as the advisory
 * scan: name, version and normalized version, ordered by name; only `names`' when given.
 */
export function keptVersions(db: Db, tenantId: string, names?: readonly string[]) {
  let q = db
    .selectFrom('proxy_versions')
    .select(['name', 'version', 'version_normalized', 'reference'])
    .where('tenant_id', '=', tenantId);
  if (names) q = q.where('name', 'in', names.length ? [...names] : ['']);
  return q.orderBy('name').orderBy('version_normalized').execute();
}

export async function addAlert(
  db: Db,
  tenantId: string,
  type: string,
  pkg: string | null,
  message: string,
): Promise<void> {
  await db
    .insertInto('proxy_alerts')
    .values({
      id: newId(),
      tenant_id: tenantId,
      type,
      package: pkg,
      message,
      created_at: new Date().toISOString(),
    })
    .execute();
}
