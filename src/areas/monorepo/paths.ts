import type { Db } from '../../infra/db/connection.js';

/**
 * Which packages are monorepo parents, and their folder globs: read by this area and by the
 * sync, which plans a parent's children from them.
 */

/** A monorepo parent's folder globs, or undefined when the package is not one. */
export async function findMonorepoPaths(db: Db, tenantId: string, packageId: string) {
  const row = await db
    .selectFrom('monorepos')
    .select('paths')
    .where('tenant_id', '=', tenantId)
    .where('package_id', '=', packageId)
    .executeTakeFirst();
  return row ? (JSON.parse(row.paths) as string[]) : undefined;
}
