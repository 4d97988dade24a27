import type { Selectable } from 'kysely';
import type { Db } from '../../infra/db/connection.js';
import { forTenant } from '../../infra/db/tenant-scope.js';
import { pageOf } from '../../infra/db/page.js';
import type { PageWindow } from '../../infra/db/page.js';
import type { OAuthConnectionsTable } from '../../infra/db/schema.js';

export type OAuthConnectionRow = Selectable<OAuthConnectionsTable>;

export async function findConnection(
  db: Db,
  tenantId: string,
  provider: string,
): Promise<OAuthConnectionRow | undefined> {
  return forTenant(db, tenantId)
    .selectFrom('oauth_connections')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('provider', '=', provider)
    .executeTakeFirst();
}

export async function listConnections(
  db: Db,
  tenantId: string,
  window: PageWindow,
): Promise<{ rows: OAuthConnectionRow[]; total: number }> {
  return pageOf(
    db.selectFrom('oauth_connections').where('tenant_id', '=', tenantId),
    (qb) => qb.selectAll().orderBy('provider'),
    window,
  );
}

/** Deletes the tenant's connection to `provider`; true when there was one. */
export async function deleteConnection(
  db: Db,
  tenantId: string,
  provider: string,
): Promise<boolean> {
  const result = await forTenant(db, tenantId)
    .deleteFrom('oauth_connections')
    .where('tenant_id', '=', tenantId)
    .where('provider', '=', provider)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function insertConnection(db: Db, row: OAuthConnectionRow): Promise<void> {
  await db.insertInto('oauth_connections').values(row).execute();
}

/**
 * Stores refreshed tokens, only if the row still holds the access token the refresh started
 * from (another node may have refreshed first); true when this update won.
 */
export async function replaceTokens(
  db: Db,
  row: Pick<OAuthConnectionRow, 'tenant_id' | 'id' | 'access_token_enc'>,
  patch: Pick<
    OAuthConnectionRow,
    'access_token_enc' | 'refresh_token_enc' | 'expires_at' | 'scopes' | 'updated_at'
  >,
): Promise<boolean> {
  const result = await db
    .updateTable('oauth_connections')
    .set(patch)
    .where('tenant_id', '=', row.tenant_id)
    .where('id', '=', row.id)
    .where('access_token_enc', '=', row.access_token_enc)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
