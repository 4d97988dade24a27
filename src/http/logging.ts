import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { REDACT_PATHS } from '../infra/logger.js';

export type LoggerOption = FastifyServerOptions['logger'];

/**
 * Our redaction on top of whatever logger settings the caller gives (false stays false).
 * Pino options only: a `true` becomes `{}` so the redaction applies to it too.
 */
export function withRedaction(logger: LoggerOption): LoggerOption {
  if (!logger) return false;
  const base = logger === true ? {} : logger;
  const extra = Array.isArray(base.redact)
    ? base.redact
    : base.redact && 'paths' in base.redact
      ? base.redact.paths
      : [];
  return {
    ...base,
    redact: { paths: [...new Set([...REDACT_PATHS, ...extra])], censor: '[redacted]' },
  };
}

/** What an incoming x-request-id may look like to be reused (a load balancer's id, a UUID). */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** The request id: the caller's `x-request-id` when it is sane, else a fresh random one. */
export function genReqId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  if (typeof given === 'string' && SANE_REQUEST_ID.test(given)) return given;
  return crypto.randomUUID();
}

/** onRequest hook: echo the id back so a caller can quote it in a bug report. */
export async function echoRequestId(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.header('x-request-id', request.id);
}
