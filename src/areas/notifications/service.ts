import type { Deps } from '../../context.js';
import { MailError, SmtpMailer } from '../../infra/mail.js';
import type { Mailer } from '../../infra/mail.js';
import { transact } from '../../unit-of-work.js';
import { systemCtx } from '../tasks/system-ctx.js';
import { composeMail } from './compose.js';
import type { ComposedMail } from './compose.js';
import { MAIL_EVENT_TYPES, mayMail } from './queue.js';
import { readRecipients } from './recipients.js';
import {
  eventsAfter,
  readCursor,
  recentSyncOutcomes,
  tenantSubdomain,
  writeCursor,
} from './store.js';
import type { OutboxEvent } from './store.js';

/** A repository is reported after this many failed syncs in a row (syncs, not attempts). */
export const SYNC_FAILURES_TO_REPORT = 3;

/** What one run of the notifier did (the task's result). */
export interface NotifyResult {
  /** Outbox events looked at. */
  events: number;
  /** Mails handed to the SMTP server. */
  mailed: number;
  /** Mails the server refused for good (logged, not retried). */
  refused: number;
}

/**
 * E-mail notifications (docs/notifications.md): a `notifications.send` task reads the tenant's
 * outbox events after its cursor, mails the `notification_emails` recipients about the ones they
 * must act on, and moves the cursor past each event once it is handled. Without SMTP_URL the
 * cursor moves on and nothing is sent; the event feed has it all either way.
 */
export class NotificationService {
  private readonly mailer: Mailer | null;

  constructor(
    private readonly deps: Deps,
    mailer?: Mailer | null,
  ) {
    const { smtpUrl, from } = deps.config.mail;
    this.mailer = mailer !== undefined ? mailer : smtpUrl ? new SmtpMailer(smtpUrl, from) : null;
  }

  /** The task handler: handles every mail-worthy event after the cursor, oldest first. */
  async run(tenantId: string, signal?: AbortSignal): Promise<NotifyResult> {
    const { db } = this.deps;
    const recipients = await readRecipients(db, tenantId);
    let cursor = await readCursor(db, tenantId);
    const result: NotifyResult = { events: 0, mailed: 0, refused: 0 };
    let origin: string | null = null;
    for (;;) {
      const batch = await eventsAfter(db, tenantId, cursor, MAIL_EVENT_TYPES, 100);
      if (batch.length === 0) return result;
      for (const event of batch) {
        signal?.throwIfAborted();
        result.events += 1;
        if (this.mailer && recipients.length > 0 && mayMail(event)) {
          origin ??= await this.originOf(tenantId);
          const mail = await this.mailFor(tenantId, event, origin);
          if (mail) {
            const sent = await this.send(tenantId, event, mail, recipients);
            result[sent ? 'mailed' : 'refused'] += 1;
          }
        }
        // Handled: a crash after this line never mails it again; before it, at most this one
        // mail goes out twice (with the same Message-ID).
        await transact(this.deps, systemCtx(tenantId), (tx) =>
          writeCursor(tx.db, tenantId, event.id),
        );
        cursor = event.id;
      }
    }
  }

  /** The mail for an event, or null: a sync failure only when it is the third in a row. */
  private async mailFor(
    tenantId: string,
    event: OutboxEvent,
    origin: string,
  ): Promise<ComposedMail | null> {
    if (event.type === 'package.synced') {
      // Counted per sync (a queued sync task), not per attempt: only its last attempt counts.
      const outcomes = await recentSyncOutcomes(
        this.deps.db,
        tenantId,
        String(event.data.package),
        event.id,
        SYNC_FAILURES_TO_REPORT + 1,
      );
      const inARow = outcomes.findIndex((s) => s !== 'failed');
      const failures = inARow === -1 ? outcomes.length : inARow;
      // Exactly the third: later failures stay quiet until a success starts a new count.
      if (failures !== SYNC_FAILURES_TO_REPORT) return null;
    }
    return composeMail(event, origin);
  }

  /** True when sent; false when the server refused it for good. Anything else throws (retried). */
  private async send(
    tenantId: string,
    event: OutboxEvent,
    mail: ComposedMail,
    to: string[],
  ): Promise<boolean> {
    const host = new URL(this.deps.config.baseUrl).hostname;
    try {
      const sent = await this.mailer!.send({
        ...mail,
        to,
        messageId: `${event.id}.${tenantId}@${host}`,
      });
      if (sent.rejected.length > 0) {
        this.deps.log.warn(
          { tenant: tenantId, event: event.id, rejected: sent.rejected },
          'notification mail: some recipients were refused',
        );
      }
      return true;
    } catch (err) {
      if (err instanceof MailError && err.permanent) {
        this.deps.log.error(
          { tenant: tenantId, event: event.id, code: err.responseCode, err: err.message },
          'notification mail refused by the SMTP server; not retried',
        );
        return false;
      }
      throw err;
    }
  }

  /** Where the links of a mail point: the tenant's own host in Cloud, else BASE_URL. */
  private async originOf(tenantId: string): Promise<string> {
    const { baseUrl, baseDomain, edition } = this.deps.config;
    if (edition !== 'cloud' || !baseDomain) return baseUrl;
    const subdomain = await tenantSubdomain(this.deps.db, tenantId);
    if (!subdomain) return baseUrl;
    const base = new URL(baseUrl);
    return `${base.protocol}//${subdomain}.${baseDomain}${base.port ? `:${base.port}` : ''}`;
  }

  close(): void {
    this.mailer?.close();
  }
}
