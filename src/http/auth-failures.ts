import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { App } from './app-types.js';

interface Window {
  failures: number;
  resetAt: number;
}

/**
 * Failed authentications per client address (AUTH_FAILURE_LIMIT per AUTH_FAILURE_WINDOW_SECONDS):
 * every guessed token would otherwise be a fresh rate-limit key. Once an address is over the
 * limit, its requests carrying credentials are answered 429 until the window ends, whatever the
 * credentials, so guessing stops paying. Counters live in this process (per node).
 */
export class AuthFailureLimiter {
  private readonly windows = new Map<string, Window>();
  private nextSweep = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Seconds until `address` may try again, or 0 when it may now. */
  retryAfter(address: string, now = Date.now()): number {
    const w = this.windows.get(address);
    if (!w || w.resetAt <= now || w.failures < this.limit) return 0;
    return Math.ceil((w.resetAt - now) / 1000);
  }

  fail(address: string, now = Date.now()): void {
    if (now >= this.nextSweep) this.sweep(now);
    let w = this.windows.get(address);
    if (!w || w.resetAt <= now) {
      w = { failures: 0, resetAt: now + this.windowMs };
      this.windows.set(address, w);
    }
    w.failures += 1;
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
    this.nextSweep = now + this.windowMs;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set where a failed authentication is answered without a 401 status (GraphQL). */
    authFailed: boolean;
  }
}

const carriesCredentials = (request: FastifyRequest): boolean =>
  Boolean(request.headers.authorization);

/**
 * Hooks the limiter into every route: a 401 answer to a request that carried credentials is a
 * failure of its client address (request.ip, which TRUST_PROXY decides).
 */
export function limitAuthFailures(app: App, limit: number, windowMs: number): void {
  app.decorateRequest('authFailed', false);
  if (limit <= 0) return;
  const limiter = new AuthFailureLimiter(limit, windowMs);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!carriesCredentials(request)) return;
    const wait = limiter.retryAfter(request.ip);
    if (wait > 0) {
      reply.header('retry-after', String(wait));
      throw new AppError(
        'RATE_LIMITED',
        `Too many failed authentications from this address; retry in ${wait} s`,
      );
    }
  });
  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    const failed = reply.statusCode === 401 || request.authFailed;
    if (failed && carriesCredentials(request)) limiter.fail(request.ip);
  });
}
