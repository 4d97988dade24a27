import { pino } from 'pino';
import type { BaseLogger } from 'pino';

/**
 * Paths pino must never print. Fastify logs no headers and no bodies by default, and nothing here
 * logs them; these guard against a future `log.info({ req })` or `{ body }` carrying a secret.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'body.plain_token',
  'body.password',
  '*.plain_token',
  '*.password',
  '*.token',
  '*.secret',
];

/** What services log through: pino's levels, secrets redacted like the request logs. */
export type Logger = BaseLogger;

/**
 * The logger of work outside HTTP requests (worker, scheduler, event bus, token refresh), JSON
 * lines on stdout like the request logs. `silent` in tests unless one asks for output.
 */
export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  const options = { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}
