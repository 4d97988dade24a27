import { forTenant } from '../../infra/db/tenant-scope.js';
import { compiledPerTenant } from '../../infra/db/compiled.js';
import type { Db } from '../../infra/db/connection.js';

/** The reads of authentication: tokens by digest, and a customer JWT's customer. */

/**
 * A customer token's row with its customer's, by digest: the read of every first request. Its
 * columns are named, not `c.*`: on PostgreSQL it is a prepared statement (compiled.ts), which a
 * column added by a migration under a running node would otherwise break.
 */
export const tokenWithCustomer = compiledPerTenant(
  (db: Db, tenantId: string, tokenDigest: string) =>
    db
      .selectFrom('customer_tokens as t')
      .innerJoin('customers as c', 'c.id', 't.customer_id')
      .select([
        'c.id',
        'c.tenant_id',
        'c.name',
        'c.email',
        'c.external_id',
        'c.status',
        'c.status_reason',
        'c.access_expires_at',
        'c.status_source',
        'c.payment_event_at',
        'c.created_at',
        'c.updated_at',
        't.id as token_id',
        't.scope',
        't.package_scopes',
        't.expires_at',
        't.token_digest',
        't.last_used_at as token_last_used_at',
      ])
      .where('t.tenant_id', '=', tenantId)
      .where('t.token_digest', '=', tokenDigest),
  1,
);

/** A team token's row by digest. */
export function teamTokenByDigest(db: Db, tenantId: string, tokenDigest: string) {
  return forTenant(db, tenantId)
    .selectFrom('team_tokens')
    .select(['id', 'level', 'token_digest', 'last_used_at'])
    .where('tenant_id', '=', tenantId)
    .where('token_digest', '=', tokenDigest)
    .executeTakeFirst();
}

/** A customer's row by id (a customer JWT names it). */
export function customerById(db: Db, tenantId: string, id: string) {
  return db
    .selectFrom('customers')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}
