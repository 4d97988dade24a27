import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * `oauth_states.browser_digest`: the digest of a random value the initiating browser holds in a
 * cookie, so a callback from any other browser (a link sent to a victim) is refused.
 * Frozen: change the schema with a new migration, never by editing this one.
 */
export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('oauth_states').addColumn('browser_digest', 'varchar(64)').execute();
}
