import type { Db } from '../../infra/db/connection.js';
import type { MetadataKind } from '../../composer/metadata.js';

/**
 * The stored p2 documents (both kinds) of several packages in one query: the portal's package
 * list filters them through the same version gates as the p2 route (visibility.ts).
 */
export async function packageDocuments(
  db: Db,
  tenantId: string,
  packageIds: readonly string[],
): Promise<{ package_id: string; kind: MetadataKind; entries: string }[]> {
  if (packageIds.length === 0) return [];
  const rows = await db
    .selectFrom('package_metadata')
    .select(['package_id', 'kind', 'entries'])
    .where('tenant_id', '=', tenantId)
    .where('package_id', 'in', [...packageIds])
    .execute();
  return rows.map((r) => ({ ...r, kind: r.kind as MetadataKind }));
}

/**
 * The README of one version: `readme_blob` ('' for none, null when synced before READMEs were
 * kept per version) and its stored text, if any.
 */
export async function versionReadme(
  db: Db,
  tenantId: string,
  packageId: string,
  normalized: string,
): Promise<{ readme_blob: string | null; content: string | null } | undefined> {
  return db
    .selectFrom('versions as v')
    .leftJoin('package_readmes as r', (join) =>
      join
        .onRef('r.tenant_id', '=', 'v.tenant_id')
        .onRef('r.package_id', '=', 'v.package_id')
        .onRef('r.blob_id', '=', 'v.readme_blob'),
    )
    .select(['v.readme_blob', 'r.content'])
    .where('v.tenant_id', '=', tenantId)
    .where('v.package_id', '=', packageId)
    .where('v.version_normalized', '=', normalized)
    .executeTakeFirst();
}
