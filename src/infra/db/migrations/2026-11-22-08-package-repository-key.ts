import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { repositoryKey } from '../../git/repository-url.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

const BATCH = 500;

/**
 * `packages.repository_key` (repositoryKey of the repository URL), indexed per tenant, so a push
 * webhook finds its packages with one index lookup instead of normalising every package's URL.
 * Existing rows are filled here, one UPDATE per 500; a change to repositoryKey's output needs a
 * new migration that recomputes the keys. All of it in one transaction: Kysely runs SQLite
 * migrations outside one, and a crash halfway must not leave a column that blocks the rerun.
 * Frozen.
 */
export async function up(db: Db): Promise<void> {
  if (db.isTransaction) await apply(db);
  else await db.transaction().execute(apply);
}

async function apply(db: Db): Promise<void> {
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
    const cases = rows.map((r) => sql`WHEN ${r.id} THEN ${repositoryKey(r.repository_url)}`);
    await db
      .updateTable('packages')
      .set({ repository_key: sql`CASE id ${sql.join(cases, sql` `)} END` })
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    after = rows[rows.length - 1]!.id;
  }
  await db.schema
    .createIndex('packages_tenant_repository_key')
    .on('packages')
    .columns(['tenant_id', 'repository_key'])
    .execute();
}
