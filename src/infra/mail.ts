import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';

/** One message to hand to the mail server. */
export interface MailMessage {
  to: readonly string[];
  subject: string;
  text: string;
  html: string;
  /**
   * The Message-ID (without angle brackets). A message sent again after a crash keeps the same
   * one, so mail clients that de-duplicate by it show it once.
   */
  messageId: string;
}

export interface SentMail {
  accepted: string[];
  rejected: string[];
}

/** Sends mail; SMTP_URL's server in production, a test's server in tests. */
export interface Mailer {
  send(message: MailMessage): Promise<SentMail>;
  close(): void;
}

/**
 * A failed hand-over. `permanent` when the server refused the message for good (a 5xx reply:
 * every recipient unknown, the message refused): sending it again would fail the same way.
 * Anything else (connection refused, timeout, a 4xx "try later") is worth another attempt.
 */
export class MailError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly responseCode: number | null,
  ) {
    super(message);
    this.name = 'MailError';
  }
}

/** No mail server may hold a worker longer than this per step (connect, greeting, each reply). */
const TIMEOUT_MS = 30_000;

/** Mail through SMTP_URL (nodemailer). The URL's credentials never reach a log or an error. */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter<SMTPTransport.SentMessageInfo>;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    const url = new URL(smtpUrl);
    const options: SMTPTransport.Options = {
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
      secure: url.protocol === 'smtps:',
      auth: url.username
        ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
        : undefined,
      connectionTimeout: TIMEOUT_MS,
      greetingTimeout: TIMEOUT_MS,
      socketTimeout: TIMEOUT_MS,
      tls: { rejectUnauthorized: url.searchParams.get('tls.rejectUnauthorized') !== 'false' },
      ignoreTLS: url.searchParams.get('ignoreTLS') === 'true',
      requireTLS: url.searchParams.get('requireTLS') === 'true',
    };
    this.transport = nodemailer.createTransport(options);
  }

  async send(message: MailMessage): Promise<SentMail> {
    try {
      const info = await this.transport.sendMail({
        from: this.from,
        to: [...message.to],
        subject: message.subject,
        text: message.text,
        html: message.html,
        messageId: `<${message.messageId}>`,
      });
      return { accepted: info.accepted.map(String), rejected: info.rejected.map(String) };
    } catch (err) {
      const e = err as Error & { responseCode?: number; code?: string };
      const code = typeof e.responseCode === 'number' ? e.responseCode : null;
      const permanent = code !== null && code >= 500 && code < 600;
      throw new MailError(`${e.code ?? 'SMTP'}: ${e.message}`, permanent, code);
    }
  }

  close(): void {
    this.transport.close();
  }
}
