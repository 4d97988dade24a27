import type { Db } from '../../infra/db/connection.js';
import { forTenant } from '../../infra/db/tenant-scope.js';

/**
 * The notifier's state lives in the tenant's `settings` rows (docs/notifications.md):
 * - `notifications.emails`: the recipients, a JSON array (the `notification_emails` setting);
 * - `notifications.cursor`: the id of the last outbox event the notifier has handled. Events
 *   after it are still to be looked at; a crash mid-way resumes from it.
 */
export const RECIPIENTS_KEY = 'notifications.emails';
const CURSOR_KEY = 'notifications.cursor';

export async function readSetting(db: Db, tenantId: string, key: string): Promise<string | null> {
  const row = await forTenant(db, tenantId)
    .selectFrom('settings')
    .select('value')
    .where('tenant_id', '=', tenantId)
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.value ?? null;
}

export async function writeSetting(db: Db, tenantId: string, key: string, value: string | null) {
  const scoped = forTenant(db, tenantId);
  if (value === null) {
    await scoped
      .deleteFrom('settings')
      .where('tenant_id', '=', tenantId)
      .where('key', '=', key)
      .execute();
    return;
  }
  await scoped
    .insertInto('settings')
    .values({ tenant_id: tenantId, key, value })
    .onConflict((oc) => oc.columns(['tenant_id', 'key']).doUpdateSet({ value }))
    .execute();
}

export function readCursor(db: Db, tenantId: string): Promise<string | null> {
  return readSetting(db, tenantId, CURSOR_KEY);
}

export function writeCursor(db: Db, tenantId: string, eventId: string): Promise<void> {
  return writeSetting(db, tenantId, CURSOR_KEY, eventId);
}

/**
 * The outcomes of the package's latest syncs up to `eventId` (included), newest first, at most
 * `count`: `failed` or `ok`, from its `package.synced` events. Failed attempts the task tried
 * again (`will_retry`) are passed over: one sync counts once however many attempts it took.
 */
export async function recentSyncOutcomes(
  db: Db,
  tenantId: string,
  pkg: string,
  eventId: string,
  count: number,
): Promise<('ok' | 'failed')[]> {
  const outcomes: ('ok' | 'failed')[] = [];
  let before = eventId;
  let inclusive = true;
  for (;;) {
    const rows = await forTenant(db, tenantId)
      .selectFrom('events')
      .select(['id', 'data'])
      .where('tenant_id', '=', tenantId)
      .where('type', '=', 'package.synced')
      .where('package', '=', pkg)
      .where('id', inclusive ? '<=' : '<', before)
      .orderBy('id', 'desc')
      .limit(50)
      .execute();
    for (const row of rows) {
      const data = JSON.parse(row.data) as Record<string, unknown>;
      if (data.status === 'failed' && data.will_retry === true) continue;
      outcomes.push(data.status === 'failed' ? 'failed' : 'ok');
      if (outcomes.length === count) return outcomes;
    }
    if (rows.length < 50) return outcomes;
    before = rows.at(-1)!.id;
    inclusive = false;
  }
}

/** The tenant's subdomain (Cloud), for the links in a mail. */
export async function tenantSubdomain(db: Db, tenantId: string): Promise<string | null> {
  const row = await db
    .selectFrom('tenants')
    .select('subdomain')
    .where('id', '=', tenantId)
    .executeTakeFirst();
  return row?.subdomain ?? null;
}

/** An outbox event as the notifier reads it (the events area writes them; see docs/notifications.md). */
export interface OutboxEvent {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

/** The tenant's events of `types` after `after` (exclusive), oldest first. */
export async function eventsAfter(
  db: Db,
  tenantId: string,
  after: string | null,
  types: readonly string[],
  limit: number,
): Promise<OutboxEvent[]> {
  let q = forTenant(db, tenantId)
    .selectFrom('events')
    .select(['id', 'type', 'created_at', 'data'])
    .where('tenant_id', '=', tenantId)
    .where('type', 'in', [...types]);
  if (after) q = q.where('id', '>', after);
  const rows = await q.orderBy('id', 'asc').limit(limit).execute();
  return rows.map((r) => ({ ...r, data: JSON.parse(r.data) as Record<string, unknown> }));
}
