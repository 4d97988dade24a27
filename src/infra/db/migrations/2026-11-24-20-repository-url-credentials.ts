import type { Kysely } from 'kysely';
import { repositoryKey } from '../../git/repository-url.js';
import { redactUrlCredentials, withoutCredentials } from '../../git/host-guard.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

export const CREDENTIALS_REMOVED =
  'The credentials stored in repository_url were removed (they were kept in clear text and ' +
  'shown to viewers); connect the host with an OAuth connection or the GitHub App';

/**
 * Secrets stored before repository URLs with credentials were refused: each package's URL loses
 * its user-info (its repository_key recomputed, a sync error saying what happened and what to do
 * instead), and audit summaries lose the user-info of every URL in them. One transaction.
 * Frozen.
 */
export async function up(db: Db): Promise<void> {
  if (db.isTransaction) await apply(db);
  else await db.transaction().execute(apply);
}

async function apply(db: Db): Promise<void> {
  const packages: { id: string; repository_url: string }[] = await db
    .selectFrom('packages')
    .select(['id', 'repository_url'])
    .where('repository_url', 'like', '%@%')
    .execute();
  for (const row of packages) {
    let url: string;
    try {
      url = withoutCredentials(row.repository_url);
    } catch {
      continue;
    }
    if (url === row.repository_url) continue;
    await db
      .updateTable('packages')
      .set({
        repository_url: url,
        repository_key: repositoryKey(url),
        sync_error: CREDENTIALS_REMOVED,
      })
      .where('id', '=', row.id)
      .execute();
  }
  const audits: { id: string; summary: string }[] = await db
    .selectFrom('audit_log')
    .select(['id', 'summary'])
    .where('summary', 'like', '%://%@%')
    .execute();
  for (const row of audits) {
    const summary = redactUrlCredentials(row.summary);
    if (summary !== row.summary) {
      await db.updateTable('audit_log').set({ summary }).where('id', '=', row.id).execute();
    }
  }
}
