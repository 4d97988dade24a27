import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { REDACT_PATHS, serializeError } from '../infra/logger.js';
import { redactUrl } from '../infra/redact-url.js';

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
  const serializers = base.serializers ?? {};
  const req = serializers.req ?? serializeRequest;
  return {
    ...base,
    redact: { paths: [...new Set([...REDACT_PATHS, ...extra])], censor: '[redacted]' },
    serializers: {
      ...serializers,
      // The URL's credentials out of every request line, whoever serializes the rest.
      req: (request: FastifyRequest) => {
        const out = req(request);
        return out.url === undefined ? out : { ...out, url: redactUrl(out.url) };
      },
      err: serializers.err ?? serializeError,
    },
  };
}

/** Fastify's own request serializer (fastify/lib/logger-pino.js), whose `url` is redacted above. */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: request.url,
    version: request.headers['accept-version'] as string | undefined,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
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
