import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { mapError } from './error-mapper.js';
import type { App } from './app-types.js';
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { windowCounter } from '../infra/cluster-counter.js';

type Logger = Pick<FastifyBaseLogger, 'warn'>;

/** Where failures are counted: this process (shared by a cluster's processes) or Redis. */
interface FailureStore {
  /** Counts one failure: the address's failures in this window (it included), the window's rest. */
  fail(address: string): Promise<{ failures: number; ttlMs: number }>;
  close(): Promise<void>;
}

function memoryStore(windowMs: number): FailureStore {
  const counter = windowCounter('auth-failures', windowMs);
  return {
    fail: async (address) => {
      const { current, ttl } = counter.hit(address);
      return { failures: current, ttlMs: ttl };
    },
    close: async () => undefined,
  };
}

/** Counters in Redis, shared by every node: INCR, and the window's expiry set by the first. */
function redisStore(url: string, prefix: string, windowMs: number, log: Logger): FailureStore {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, enableAutoPipelining: true });
  redis.on('error', (err: Error) => log.warn({ err }, 'Redis (auth-failure counters) unavailable'));
  const key = (address: string) => `${prefix}af:${address}`;
  return {
    fail: async (address) => {
      const [[, failures], , [, ttl]] = (await redis
        .multi()
        .incr(key(address))
        .pexpire(key(address), windowMs, 'NX')
        .pttl(key(address))
        .exec()) as [[Error | null, number], unknown, [Error | null, number]];
      if (failures === undefined) throw new Error('Redis answered no count');
      // No expiry read back (cannot happen after PEXPIRE NX): the whole window, to be safe.
      return { failures, ttlMs: ttl > 0 ? ttl : windowMs };
    },
    close: async () => {
      await redis.quit().catch(() => undefined);
    },
  };
}

/**
 * Failed authentications per client address (AUTH_FAILURE_LIMIT per AUTH_FAILURE_WINDOW_SECONDS):
 * every guessed token would otherwise be a fresh rate-limit key. Past the limit, an attempt whose
 * credentials FAIL is answered 429 with Retry-After instead of 401, until the window ends. A valid
 * credential is never refused for its address's failures: many customers' machines share one
 * address (NAT, CI runners), and one of them guessing must not lock the others out
 * (docs/production.md). Counted in Redis with REDIS_URL (every node), else in this process and
 * shared by the processes of one `packyard serve`. A counter store that cannot answer lets the
 * failure through as a 401 (logged): an outage must not turn into refusals.
 */
export class AuthFailureLimiter {
  constructor(
    private readonly limit: number,
    private readonly store: FailureStore,
    private readonly log: Logger,
  ) {}

  /**
   * Counts a failed authentication of `address`: the seconds until the address may try again
   * when this failure is past the limit (answer it 429), else 0 (answer it 401).
   */
  async fail(address: string): Promise<number> {
    try {
      const { failures, ttlMs } = await this.store.fail(address);
      return failures > this.limit ? Math.max(1, Math.ceil(ttlMs / 1000)) : 0;
    } catch (err) {
      this.log.warn({ err }, 'auth-failure counter unavailable; failure not counted');
      return 0;
    }
  }

  /** The contract's 429 for an address that must wait `wait` seconds. */
  static refusal(wait: number): AppError {
    return new AppError(
      'RATE_LIMITED',
      `Too many failed authentications from this address; retry in ${wait} s`,
    );
  }

  close(): Promise<void> {
    return this.store.close();
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set where a failed authentication is answered without a 401 status (GraphQL). */
    authFailed: boolean;
  }
  interface FastifyInstance {
    /** Null when AUTH_FAILURE_LIMIT is 0. Also consulted by GraphQL over WebSocket. */
    authFailures: AuthFailureLimiter | null;
  }
}

const carriesCredentials = (request: FastifyRequest): boolean =>
  Boolean(request.headers.authorization);

/**
 * The answer to a failed authentication past the limit: REST and Composer get the contract's
 * 429; GraphQL keeps its own convention (HTTP 200, the code in `extensions`, docs/graphql.md).
 */
function refuse(request: FastifyRequest, reply: FastifyReply, wait: number): string {
  const body = mapError(AuthFailureLimiter.refusal(wait)).body;
  reply.header('retry-after', String(wait));
  reply.removeHeader('www-authenticate');
  reply.type('application/json; charset=utf-8');
  if (request.authFailed && reply.statusCode !== 401) {
    return JSON.stringify({
      data: null,
      errors: [{ message: body.message, extensions: { code: body.code } }],
    });
  }
  reply.code(429);
  return JSON.stringify(body);
}

/**
 * Hooks the limiter into every route: a 401 answer to a request that carried credentials (or a
 * GraphQL answer flagged `authFailed`) is a failure of its client address (request.ip, which
 * TRUST_PROXY decides), counted before the answer leaves; past the limit that answer becomes the
 * 429. Requests whose credentials are valid never get here, whatever their address's count.
 * GraphQL over WebSocket counts its refused `connection_init`s through `app.authFailures`
 * (graphql/subscriptions.ts).
 */
export function limitAuthFailures(
  app: App,
  settings: { limit: number; windowMs: number; redisUrl: string | null; redisKeyPrefix: string },
): void {
  app.decorateRequest('authFailed', false);
  const { limit, windowMs, redisUrl, redisKeyPrefix } = settings;
  if (limit <= 0) {
    app.decorate('authFailures', null);
    return;
  }
  const store = redisUrl
    ? redisStore(redisUrl, redisKeyPrefix, windowMs, app.log)
    : memoryStore(windowMs);
  const limiter = new AuthFailureLimiter(limit, store, app.log);
  app.decorate('authFailures', limiter);
  app.addHook('onClose', async () => limiter.close());
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const failed = reply.statusCode === 401 || request.authFailed;
    if (!failed || !carriesCredentials(request)) return payload;
    const wait = await limiter.fail(request.ip);
    return wait > 0 ? refuse(request, reply, wait) : payload;
  });
}
