import type { Db } from '../../infra/db/connection.js';

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

/** The parent's child packages, joined to their package rows, to select from. */
export function childQuery(db: Db, tenantId: string, parentId: string) {
  return db
    .selectFrom('monorepo_children')
    .innerJoin('packages', 'packages.id', 'monorepo_children.package_id')
    .where('monorepo_children.tenant_id', '=', tenantId)
    .where('monorepo_children.parent_id', '=', parentId);
}
