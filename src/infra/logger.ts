import { pino, stdSerializers } from 'pino';
import type { BaseLogger, SerializedError } from 'pino';
import { redactUrl } from './redact-url.js';

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

/** Every string of a serialized error (message, stack, cause…) with URL credentials redacted. */
function redactStrings(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactUrl(value);
  if (depth === 0 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, depth - 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = redactStrings(item, depth - 1);
  return out;
}

/**
 * pino's error serializer, then credentials out of any URL in it (redact-url.ts): an error's
 * message may quote the URL it failed on, and paths cannot reach inside a string.
 */
export function serializeError(err: Error): SerializedError {
  return redactStrings(stdSerializers.err(err), 4) as SerializedError;
}

/** What services log through: pino's levels, secrets redacted like the request logs. */
export type Logger = BaseLogger;

/**
 * The logger of work outside HTTP requests (worker, scheduler, event bus, token refresh), JSON
 * lines on stdout like the request logs. `silent` in tests unless one asks for output.
 */
export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  const options = {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError },
  };
  return destination ? pino(options, destination) : pino(options);
}
