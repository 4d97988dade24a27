import type { Kysely } from 'kysely';
import { normalizeRepositoryUrl } from '../../git/repository-url.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

const BATCH = 500;

/**
 * `packages.repository_key`: the repository URL in the one comparable form of
 * normalizeRepositoryUrl, indexed per tenant, so a push webhook finds its packages with one index
 * lookup instead of normalising every package's URL. Existing rows are filled in here; a change
 * to normalizeRepositoryUrl's output needs a new migration that recomputes the keys. Frozen.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .alterTable('packages')
    .addColumn('repository_key', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  let after = '';
  for (;;) {
    const rows: { id: string; repository_url: string }[] = await db
      .selectFrom('packages')
      .select(['id', 'repository_url'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) break;
    for (const row of rows) {
      await db
        .updateTable('packages')
        .set({ repository_key: normalizeRepositoryUrl(row.repository_url) })
        .where('id', '=', row.id)
        .execute();
    }
    after = rows[rows.length - 1]!.id;
  }
  await db.schema
    .createIndex('packages_tenant_repository_key')
    .on('packages')
    .columns(['tenant_id', 'repository_key'])
    .execute();
}
