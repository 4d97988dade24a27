import type { Db } from '../../infra/db/connection.js';
import { digest, generateSecret } from '../../infra/crypto.js';

const SETTING_KEY = 'admin_token_digest';

/**
 * The root admin token's digest: from ADMIN_TOKEN when set, else the one stored on an earlier
 * start, else a new token is generated and stored. `generated` holds the plain value only in
 * that last case, so it can be printed exactly once.
 */
export async function ensureAdminToken(
  db: Db,
  tenantId: string,
  configured: string | null,
): Promise<{ digest: string; generated: string | null }> {
  if (configured) return { digest: digest(configured), generated: null };
  const stored = await db
    .selectFrom('settings')
    .select('value')
    .where('tenant_id', '=', tenantId)
    .where('key', '=', SETTING_KEY)
    .executeTakeFirst();
  if (stored) return { digest: stored.value, generated: null };
  const token = generateSecret('pya_');
  const value = digest(token);
  // Another node may race us on first start: keep whichever digest landed first.
  await db
    .insertInto('settings')
    .values({ tenant_id: tenantId, key: SETTING_KEY, value })
    .onConflict((oc) => oc.columns(['tenant_id', 'key']).doNothing())
    .execute();
  const winner = await db
    .selectFrom('settings')
    .select('value')
    .where('tenant_id', '=', tenantId)
    .where('key', '=', SETTING_KEY)
    .executeTakeFirstOrThrow();
  return { digest: winner.value, generated: winner.value === value ? token : null };
}
