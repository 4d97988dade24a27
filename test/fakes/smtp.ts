import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import type { ParsedMail } from 'mailparser';

/** A message as the fake server received it: the envelope and the parsed mail. */
export interface ReceivedMail {
  from: string;
  to: string[];
  mail: ParsedMail;
}

/**
 * A real SMTP server on loopback (the `smtp-server` package) that keeps every message it accepts,
 * parsed with `mailparser`. It asks for AUTH PLAIN/LOGIN with `user`/`password`, and can be told
 * to refuse the next messages with a given reply code (4xx: try later; 5xx: for good).
 */
export class FakeSmtp {
  readonly received: ReceivedMail[] = [];
  /** Reply codes for the next messages, consumed one per message. */
  readonly refuse: number[] = [];
  /**
   * When each TCP connection was accepted (performance.now()), for latency measurements: before
   * smtp-server's own fixed 100 ms wait for early talkers, which precedes its greeting.
   */
  readonly connectedAt: number[] = [];
  readonly user = 'mailer';
  readonly password = 'smtp-secret-pass';
  private readonly server: SMTPServer;

  constructor() {
    this.server = new SMTPServer({
      // Plain text on loopback: the client must not try STARTTLS with a certificate it distrusts.
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      // No reverse DNS of the client: it costs ~100 ms per connection and tells the test nothing.
      disableReverseLookup: true,
      logger: false,
      onAuth: (auth, _session, callback) => {
        if (auth.username === this.user && auth.password === this.password) {
          callback(null, { user: auth.username });
        } else {
          callback(new Error('Invalid username or password'));
        }
      },
      onData: (stream, session, callback) => {
        const code = this.refuse.shift();
        simpleParser(stream)
          .then((mail) => {
            if (code !== undefined) {
              const err = new Error(`refused by the test (${code})`) as Error & {
                responseCode: number;
              };
              err.responseCode = code;
              callback(err);
              return;
            }
            this.received.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              mail,
            });
            callback();
          })
          .catch((err: Error) => callback(err));
      },
    });
  }

  async start(): Promise<this> {
    this.server.server.on('connection', () => this.connectedAt.push(performance.now()));
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve());
    });
    return this;
  }

  get port(): number {
    return (this.server.server.address() as AddressInfo).port;
  }

  /** SMTP_URL for this server, with its credentials. */
  get url(): string {
    return `smtp://${this.user}:${this.password}@127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
