import type { Selectable } from 'kysely';
import type { Db } from '../../infra/db/connection.js';
import { forTenant, unscoped } from '../../infra/db/tenant-scope.js';
import type { OAuthStatesTable } from '../../infra/db/schema.js';

/**
 * One-time, browser-bound authorization states (`oauth_states`), shared by the two browser flows
 * that leave for a git host and come back: connecting an OAuth account (this area) and proving a
 * GitHub App installation claim (hostapp/claim-proof.ts). Each flow names itself in `provider`.
 */

export type OAuthStateRow = Selectable<OAuthStatesTable>;

export async function insertState(db: Db, row: OAuthStateRow): Promise<void> {
  await db.insertInto('oauth_states').values(row).execute();
}

/**
 * Removes and returns the pending authorization `state` of `provider`: whoever deletes it owns
 * it, so a state is used at most once even when two callbacks race.
 */
export async function takeState(
  db: Db,
  provider: string,
  state: string,
): Promise<OAuthStateRow | undefined> {
  // The state is a random secret that names its tenant; the callback learns the tenant from it.
  return unscoped(db, 'an authorization state is found by its secret value')
    .deleteFrom('oauth_states')
    .where('state', '=', state)
    .where('provider', '=', provider)
    .returningAll()
    .executeTakeFirst();
}

/** Forgets the tenant's authorizations nobody finished. */
export async function deleteExpiredStates(db: Db, tenantId: string, now: string): Promise<void> {
  await forTenant(db, tenantId)
    .deleteFrom('oauth_states')
    .where('tenant_id', '=', tenantId)
    .where('expires_at', '<=', now)
    .execute();
}
