import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { App } from './app-types.js';
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { windowCounter } from '../infra/cluster-counter.js';

type Logger = Pick<FastifyBaseLogger, 'warn'>;

/** Where failures are counted: this process (shared by a cluster's processes) or Redis. */
interface FailureStore {
  count(address: string): Promise<{ failures: number; ttlMs: number }>;
  fail(address: string): Promise<void>;
  close(): Promise<void>;
}

function memoryStore(windowMs: number): FailureStore {
  const counter = windowCounter('auth-failures', windowMs);
  return {
    count: async (address) => {
      const { current, ttl } = counter.peek(address);
      return { failures: current, ttlMs: ttl };
    },
    fail: async (address) => {
      counter.hit(address);
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
    count: async (address) => {
      const [failures, ttl] = await Promise.all([
        redis.get(key(address)),
        redis.pttl(key(address)),
      ]);
      return { failures: Number(failures ?? 0), ttlMs: Math.max(0, ttl) };
    },
    fail: async (address) => {
      const [[, count]] = (await redis
        .multi()
        .incr(key(address))
        .pexpire(key(address), windowMs, 'NX')
        .exec()) as [[Error | null, number]];
      if (count === undefined) throw new Error('Redis answered no count');
    },
    close: async () => {
      await redis.quit().catch(() => undefined);
    },
  };
}

/**
 * Failed authentications per client address (AUTH_FAILURE_LIMIT per AUTH_FAILURE_WINDOW_SECONDS):
 * every guessed token would otherwise be a fresh rate-limit key. Once an address is over the
 * limit, its requests carrying credentials are answered 429 until the window ends, whatever the
 * credentials, so guessing stops paying. Counted in Redis with REDIS_URL (every node), else in
 * this process and shared by the processes of one `packyard serve`. A counter store that cannot
 * answer lets requests through (logged): an outage must not lock everyone out.
 */
export class AuthFailureLimiter {
  constructor(
    private readonly limit: number,
    private readonly store: FailureStore,
    private readonly log: Logger,
  ) {}

  /** Seconds until `address` may try again, or 0 when it may now. */
  async retryAfter(address: string): Promise<number> {
    try {
      const { failures, ttlMs } = await this.store.count(address);
      return failures < this.limit || ttlMs <= 0 ? 0 : Math.ceil(ttlMs / 1000);
    } catch (err) {
      this.log.warn({ err }, 'auth-failure counter unavailable; request let through');
      return 0;
    }
  }

  async fail(address: string): Promise<void> {
    try {
      await this.store.fail(address);
    } catch (err) {
      this.log.warn({ err }, 'auth-failure counter unavailable; failure not counted');
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
 * Hooks the limiter into every route: a 401 answer to a request that carried credentials is a
 * failure of its client address (request.ip, which TRUST_PROXY decides). GraphQL over WebSocket
 * counts its refused `connection_init`s through `app.authFailures` (graphql/subscriptions.ts).
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
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!carriesCredentials(request)) return;
    const wait = await limiter.retryAfter(request.ip);
    if (wait > 0) {
      reply.header('retry-after', String(wait));
      throw AuthFailureLimiter.refusal(wait);
    }
  });
  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    const failed = reply.statusCode === 401 || request.authFailed;
    if (failed && carriesCredentials(request)) await limiter.fail(request.ip);
  });
}
