import type { Db } from '../../infra/db/connection.js';

/** The parent's child packages, joined to their package rows, to select from. */
export function childQuery(db: Db, tenantId: string, parentId: string) {
  return db
    .selectFrom('monorepo_children')
    .innerJoin('packages', 'packages.id', 'monorepo_children.package_id')
    .where('monorepo_children.tenant_id', '=', tenantId)
    .where('monorepo_children.parent_id', '=', parentId);
}
