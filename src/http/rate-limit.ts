import type { FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { FastifyRateLimitStore, RateLimitPluginOptions } from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import type { Config } from '../config/index.js';
import { AppError } from '../errors.js';
import { digest } from '../infra/crypto.js';
import { customerSecret } from '../areas/composer-repository/credentials.js';
import { windowCounter } from '../infra/cluster-counter.js';
import { RedisBatchedCounter } from '../infra/redis-batched-counter.js';
import type { HitCounter } from '../infra/cluster-counter.js';
import { mapError } from './error-mapper.js';
import type { App } from './app-types.js';
import type { FastAnswer } from './fast-answer.js';

/** Limits count requests per this window (docs/operations.md: "per minute"). */
export const RATE_WINDOW_MS = 60_000;

export type LimitedScope = 'admin' | 'composer';

/**
 * Whom a request is counted against: the SHA-256 of its bearer or basic secret (never the secret
 * itself), or its client IP when it carries no credentials.
 */
export function rateLimitKey(authorization: string | undefined, ip: string): string {
  if (!authorization) return `ip:${ip}`;
  try {
    return tokenKey(digest(customerSecret(authorization)));
  } catch {
    // A malformed header still gets a bucket of its own, keyed by its digest.
    return `h:${digest(authorization)}`;
  }
}

/** The key of a token whose secret's digest is already known (the p2 fast path computes it). */
export const tokenKey = (secretDigest: string): string => `t:${secretDigest}`;

/** The contract error of a request over its limit. */
export function rateLimitedError(max: number, retryAfterSeconds: number): AppError {
  return new AppError(
    'RATE_LIMITED',
    `Rate limit exceeded: at most ${max} requests per minute; retry in ${retryAfterSeconds} s`,
  );
}

/**
 * Counts a metadata cache hit of the fast path: 'pass' after appending its RateLimit headers to
 * `headers` (a flat name, value list for `writeHead`), or the 429 answer to send instead.
 */
export type FastPathGate = (
  secretDigest: string,
  headers: (string | number)[],
) => 'pass' | FastAnswer | Promise<'pass' | FastAnswer>;

export interface RateLimiting {
  /** Limits every route of the scope; call first, before the scope's other hooks and routes. */
  apply(scope: App, which: LimitedScope): Promise<void>;
  /** For p2 cache hits answered before Fastify; undefined when the composer limit is off. */
  fastPathGate: FastPathGate | undefined;
  close(): Promise<void>;
}

export interface RateLimitSettings {
  config: Pick<
    Config,
    'redisUrl' | 'redisKeyPrefix' | 'rateLimitAdminPerMinute' | 'rateLimitComposerPerMinute'
  >;
  /** Where Redis connection errors go (requests are let through while Redis is down). */
  onRedisError?: (err: Error) => void;
}

/** A metadata cache hit's count against the Composer limit: 'pass' with its headers, or 429. */
function fastPathVerdict(
  max: number,
  { current, ttl }: { current: number; ttl: number },
  headers: (string | number)[],
): 'pass' | FastAnswer {
  const reset = Math.ceil(ttl / 1000);
  headers.push(
    'ratelimit-limit',
    max,
    'ratelimit-remaining',
    Math.max(0, max - current),
    'ratelimit-reset',
    reset,
  );
  if (current <= max) return 'pass';
  const body = Buffer.from(JSON.stringify(mapError(rateLimitedError(max, reset)).body));
  headers.push('retry-after', String(reset), 'content-type', 'application/json; charset=utf-8');
  headers.push('content-length', body.length);
  return { status: 429, headers, body };
}

/**
 * Per-token rate limits (docs/operations.md) with @fastify/rate-limit: the admin API and the
 * Composer surface each have their own limit and counters. With REDIS_URL the counters live in
 * Redis, shared by every node; without it, in this process, or shared by the processes of one
 * `packyard serve` cluster through its primary (src/infra/cluster-counter.ts).
 */
export function createRateLimiting({ config, onRedisError }: RateLimitSettings): RateLimiting {
  const limits: Record<LimitedScope, number> = {
    admin: config.rateLimitAdminPerMinute,
    composer: config.rateLimitComposerPerMinute,
  };
  let redis: Redis | null = null;
  if (config.redisUrl && Object.values(limits).some((max) => max > 0)) {
    redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableAutoPipelining: true });
    redis.on('error', (err: Error) => onRedisError?.(err));
  }
  const connections = redis ? [redis] : [];
  // Without Redis, the processes of one cluster (WEB_CONCURRENCY) still share their counts.
  const counters: Record<LimitedScope, HitCounter> = {
    admin: windowCounter('rate-limit:admin', RATE_WINDOW_MS, limits.admin),
    composer: windowCounter('rate-limit:composer', RATE_WINDOW_MS, limits.composer),
  };

  const options = (which: LimitedScope): RateLimitPluginOptions => {
    const base: RateLimitPluginOptions = {
      global: false,
      max: limits[which],
      timeWindow: RATE_WINDOW_MS,
      enableDraftSpec: true,
      keyGenerator: (req: FastifyRequest) => rateLimitKey(req.headers.authorization, req.ip),
      errorResponseBuilder: (_req, ctx) => rateLimitedError(ctx.max, Math.ceil(ctx.ttl / 1000)),
      // A Redis outage must not take the registry down with it: requests pass, unlimited.
      skipOnError: true,
    };
    if (redis) return { ...base, redis, nameSpace: `${config.redisKeyPrefix}rl:${which}:` };
    const counter = counters[which];
    class SharedStore implements FastifyRateLimitStore {
      incr(
        key: string,
        callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      ): void {
        callback(null, counter.hit(key));
      }
      child(): FastifyRateLimitStore {
        return this;
      }
    }
    return { ...base, store: SharedStore };
  };

  const composerMax = limits.composer;
  let fastPathGate: FastPathGate | undefined;
  if (composerMax > 0) {
    const counted = (count: { current: number; ttl: number }, headers: (string | number)[]) =>
      fastPathVerdict(composerMax, count, headers);
    if (redis) {
      // Its own connection without an offline queue: while Redis is away a hit fails at once.
      const shared = new Redis(config.redisUrl!, {
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
      });
      shared.on('error', (err: Error) => onRedisError?.(err));
      connections.push(shared);
      const counter = new RedisBatchedCounter(
        shared,
        `${config.redisKeyPrefix}rl:composer:`,
        RATE_WINDOW_MS,
        onRedisError,
      );
      fastPathGate = (secretDigest, headers) => {
        const count = counter.hit(tokenKey(secretDigest));
        return count instanceof Promise
          ? count.then((c) => counted(c, headers))
          : counted(count, headers);
      };
    } else {
      fastPathGate = (secretDigest, headers) =>
        counted(counters.composer.hit(tokenKey(secretDigest)), headers);
    }
  }

  return {
    fastPathGate,
    async apply(scope, which) {
      if (limits[which] <= 0) return;
      await scope.register(rateLimit, options(which));
      scope.addHook('onRequest', scope.rateLimit());
    },
    async close() {
      for (const c of connections) await c.quit().catch(() => undefined);
    },
  };
}
