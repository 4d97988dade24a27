import type { Db } from '../../infra/db/connection.js';
import { newestEventId } from '../events/newest.js';
import { RECIPIENTS_KEY, readSetting, writeCursor, writeSetting } from './store.js';

// The `notification_emails` setting (docs/notifications.md): the settings area reads and writes
// it through this module, never through the notifier's store.

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
