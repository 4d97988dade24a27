import type { Env } from './values.js';
/** Outgoing e-mail (docs/notifications.md). */
export interface MailSettings {
  /**
   * Where notification mails are handed over: `smtp://[user:pass@]host[:port]` (STARTTLS when
   * the server offers it) or `smtps://…` (TLS from the first byte); null = no mail is sent
   * (SMTP_URL). Query options nodemailer understands are kept (e.g. `?tls.rejectUnauthorized=false`).
   */
  smtpUrl: string | null;
  /** The From header of every mail (MAIL_FROM, default `Packyard <packyard@<BASE_URL's host>>`). */
  from: string;
}

/** How config.ts reports a bad setting (ConfigError). */
export interface MailSettingReaders {
  fail(message: string): Error;
}

/** A plain address, or `Name <address>`. */
const FROM_RE = /^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/;

export function mailSettings(env: Env, baseUrl: string, read: MailSettingReaders): MailSettings {
  const smtpUrl = env.SMTP_URL?.trim() || null;
  if (smtpUrl !== null) {
    // The URL may carry a password: an error names its shape, never the value.
    let parsed: URL | null = null;
    try {
      parsed = new URL(smtpUrl);
    } catch {
      // reported below
    }
    if (!parsed || !['smtp:', 'smtps:'].includes(parsed.protocol) || parsed.hostname === '') {
      throw read.fail('SMTP_URL must be smtp://[user:password@]host[:port] or smtps://…');
    }
  }
  const from = env.MAIL_FROM?.trim() || `Packyard <packyard@${new URL(baseUrl).hostname}>`;
  if (!FROM_RE.test(from)) {
    throw read.fail(`MAIL_FROM must be an address or "Name <address>", got "${from}"`);
  }
  return { smtpUrl, from };
}
