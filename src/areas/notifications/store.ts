import type { Db } from '../../infra/db/connection.js';
import { forTenant } from '../../infra/db/tenant-scope.js';

/**
 * The notifier's state lives in the tenant's `settings` rows (docs/notifications.md):
 * - `notifications.emails`: the recipients, a JSON array (the `notification_emails` setting);
 * - `notifications.cursor`: the id of the last outbox event the notifier has handled. Events
 *   after it are still to be looked at; a crash mid-way resumes from it.
 */
const RECIPIENTS_KEY = 'notifications.emails';
const CURSOR_KEY = 'notifications.cursor';

async function readSetting(db: Db, tenantId: string, key: string): Promise<string | null> {
  const row = await forTenant(db, tenantId)
    .selectFrom('settings')
    .select('value')
    .where('tenant_id', '=', tenantId)
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.value ?? null;
}

async function writeSetting(db: Db, tenantId: string, key: string, value: string | null) {
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

/** Who is e-mailed (the `notification_emails` setting); empty when nobody. */
export async function readRecipients(db: Db, tenantId: string): Promise<string[]> {
  const raw = await readSetting(db, tenantId, RECIPIENTS_KEY);
  return raw ? (JSON.parse(raw) as string[]) : [];
}

/**
 * Replaces the recipients. When there were none before, the cursor moves to the newest event:
 * mail is about what happens from now on, never a backlog of what happened while nobody was
 * listed.
 */
export async function writeRecipients(db: Db, tenantId: string, emails: readonly string[]) {
  const before = await readRecipients(db, tenantId);
  const unique = [...new Set(emails.map((e) => e.trim()))];
  await writeSetting(
    db,
    tenantId,
    RECIPIENTS_KEY,
    unique.length > 0 ? JSON.stringify(unique) : null,
  );
  if (before.length === 0 && unique.length > 0) {
    const newest = await newestEventId(db, tenantId);
    if (newest) await writeCursor(db, tenantId, newest);
  }
}

export function readCursor(db: Db, tenantId: string): Promise<string | null> {
  return readSetting(db, tenantId, CURSOR_KEY);
}

export function writeCursor(db: Db, tenantId: string, eventId: string): Promise<void> {
  return writeSetting(db, tenantId, CURSOR_KEY, eventId);
}

async function newestEventId(db: Db, tenantId: string): Promise<string | null> {
  const row = await forTenant(db, tenantId)
    .selectFrom('events')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}

/**
 * The statuses of the package's latest `package.synced` events up to `eventId` (included),
 * newest first: how many failures in a row the event ends.
 */
export async function recentSyncStatuses(
  db: Db,
  tenantId: string,
  pkg: string,
  eventId: string,
  count: number,
): Promise<string[]> {
  const rows = await forTenant(db, tenantId)
    .selectFrom('events')
    .select('data')
    .where('tenant_id', '=', tenantId)
    .where('type', '=', 'package.synced')
    .where('package', '=', pkg)
    .where('id', '<=', eventId)
    .orderBy('id', 'desc')
    .limit(count)
    .execute();
  return rows.map((r) => String((JSON.parse(r.data) as { status?: unknown }).status));
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
