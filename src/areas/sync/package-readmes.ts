import type { Db } from '../../infra/db/connection.js';
import type { Target } from './types.js';

/** Rows per INSERT of README texts. */
const INSERT_BATCH = 100;

/**
 * The `package_readmes` rows of one synced package, in the sync's transaction after its versions
 * were written: the README texts the analysis read (readmes.ts) go in once per blob, and a blob
 * no version points at any more goes. A sync that read nothing new and removed no version
 * touches nothing here.
 */
export async function storeReadmes(trx: Db, t: Target, removedSome: boolean): Promise<void> {
  const { tenant_id: tenantId, id: packageId } = t.pkg;
  const texts = new Map<string, string>();
  let fresh = false;
  for (const c of t.candidates) {
    if (c.readmeBlob !== undefined) fresh = true;
    if (c.readmeBlob && c.readmeText !== undefined) texts.set(c.readmeBlob, c.readmeText);
  }
  if (texts.size > 0) {
    const stored = await trx
      .selectFrom('package_readmes')
      .select('blob_id')
      .where('tenant_id', '=', tenantId)
      .where('package_id', '=', packageId)
      .where('blob_id', 'in', [...texts.keys()])
      .execute();
    for (const row of stored) texts.delete(row.blob_id);
    const rows = [...texts].map(([blob_id, content]) => ({
      tenant_id: tenantId,
      package_id: packageId,
      blob_id,
      content,
    }));
    for (let i = 0; i < rows.length; i += INSERT_BATCH) {
      await trx
        .insertInto('package_readmes')
        .values(rows.slice(i, i + INSERT_BATCH))
        .execute();
    }
  }
  if (!fresh && !removedSome) return;
  const used = trx
    .selectFrom('versions')
    .select('readme_blob')
    .where('tenant_id', '=', tenantId)
    .where('package_id', '=', packageId)
    .where('readme_blob', 'is not', null);
  await trx
    .deleteFrom('package_readmes')
    .where('tenant_id', '=', tenantId)
    .where('package_id', '=', packageId)
    .where('blob_id', 'not in', used.$narrowType<{ readme_blob: string }>())
    .execute();
}
