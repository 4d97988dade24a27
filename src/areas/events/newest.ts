import type { Db } from '../../infra/db/connection.js';
import { forTenant } from '../../infra/db/tenant-scope.js';

/**
 * The id of the tenant's newest event, or null without any: where a reader that cares only
 * about what happens from now on starts (the live subscription tail, the e-mail notifier when
 * its first recipient is set). Published for other areas, which never read events/store.ts.
 */
export async function newestEventId(db: Db, tenantId: string): Promise<string | null> {
  const row = await forTenant(db, tenantId)
    .selectFrom('events')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}
