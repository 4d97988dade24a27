import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import {
  TEST_REDIS_URL as REDIS_URL,
  basicAuth,
  createTestApp,
  waitFor,
} from '../../test/helpers.js';
import type { TestApp } from '../../test/helpers.js';
import { adminApi, addSyncedPackage, createCustomer } from '../../test/factories.js';
import { GitFixture } from '../../test/fixtures/git-repo.js';
import { startServer } from '../../test/e2e/server.js';
import type { RunningServer } from '../../test/e2e/server.js';
import { rateLimitKey } from './rate-limit.js';

/** p2 cache hits answered before Fastify count on the Redis counters every node shares. */
describe('p2 fast path with Redis', () => {
  const prefix = `packyard-test-${crypto.randomBytes(6).toString('hex')}:`;
  let s: RunningServer;
  let repo: GitFixture;
  let auth: string;
  let key: string;
  let redis: Redis;
  beforeAll(async () => {
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    s = await startServer({
      REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      RATE_LIMIT_COMPOSER_PER_MINUTE: '8',
    });
    repo = new GitFixture('acme/shared-limit');
    repo.release('1.0.0');
    await addSyncedPackage(s, 'acme/shared-limit', repo.url);
    const api = adminApi(s);
    const customer = await createCustomer(s, 'RedisLimited');
    await api('POST', `/api/v1/customers/${customer.id}/packages`, {
      package: 'acme/shared-limit',
      constraint: '*',
    });
    const token = await api('POST', `/api/v1/customers/${customer.id}/tokens`, { name: 't' });
    auth = basicAuth(token.plain_token);
    key = `${prefix}rl:composer:${rateLimitKey(auth, '127.0.0.1')}`;
  });
  afterAll(async () => {
    await s.close();
    repo.remove();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('answers cache hits before Fastify, counted on the shared Redis key', async () => {
    const get = () =>
      fetch(`${s.url}/p2/acme/shared-limit.json`, { headers: { authorization: auth } });
    const hits = s.app.p2FastPath.hits;
    const first = await get();
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    for (let i = 0; i < 3; i++) {
      const res = await get();
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('8');
      await res.arrayBuffer();
    }
    // The routed answer and the three fast-path hits all reach the one key every node counts on.
    expect(s.app.p2FastPath.hits).toBe(hits + 3);
    await waitFor(
      () => redis.get(key),
      (count) => count === '4',
    );
    // Another node serves the token four times: this node refuses the token as soon as what it
    // last heard from Redis is older than a few ms (a hit within them is counted here only, so
    // two quick requests may both pass; a bound of ten keeps the test honest).
    await redis.incrby(key, 4);
    const statuses: number[] = [];
    for (let i = 0; i < 10 && !statuses.includes(429); i++) {
      const res = await get();
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    expect(statuses).toContain(429);
    await waitFor(
      () => redis.get(key),
      (count) => count === String(8 + statuses.length),
    );
  });
});

describe('p2 fast path while Redis cannot be reached', () => {
  it('still answers, counted on this node only', async () => {
    const s = await startServer({
      REDIS_URL: 'redis://127.0.0.1:9/0',
      RATE_LIMIT_COMPOSER_PER_MINUTE: '100',
      // The admin calls that set the test up would each wait out Redis too.
      RATE_LIMIT_ADMIN_PER_MINUTE: '0',
    });
    const repo = new GitFixture('acme/no-redis');
    try {
      repo.release('1.0.0');
      await addSyncedPackage(s, 'acme/no-redis', repo.url);
      const api = adminApi(s);
      const customer = await createCustomer(s, 'NoRedis');
      await api('POST', `/api/v1/customers/${customer.id}/packages`, {
        package: 'acme/no-redis',
        constraint: '*',
      });
      const token = await api('POST', `/api/v1/customers/${customer.id}/tokens`, { name: 't' });
      const hits = s.app.p2FastPath.hits;
      for (let i = 0; i < 4; i++) {
        const res = await fetch(`${s.url}/p2/acme/no-redis.json`, {
          headers: { authorization: basicAuth(token.plain_token) },
        });
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      }
      expect(s.app.p2FastPath.hits).toBe(hits + 3);
    } finally {
      await s.close();
      repo.remove();
    }
  });
});

describe('failed authentications from one address, counted in Redis', () => {
  it('never refuse a valid token on any node; failing ones get 429 with Retry-After', async () => {
    const prefix = `packyard-test-${crypto.randomBytes(6).toString('hex')}:`;
    const env = { WORKER: 'off', AUTH_FAILURE_LIMIT: '3', REDIS_URL, REDIS_KEY_PREFIX: prefix };
    const a = await createTestApp(env);
    const b = await createTestApp(env);
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    try {
      // Each test app has a database (or schema) of its own: a customer token on each.
      const customers = new Map<TestApp, string>();
      for (const node of [a, b]) {
        const { id } = await createCustomer(node, 'BehindNat');
        const token = await adminApi(node)('POST', `/api/v1/customers/${id}/tokens`, {
          name: 'ci',
        });
        customers.set(node, basicAuth(token.plain_token));
      }
      const nat = '198.51.100.7';
      const call = (node: TestApp, url: string, authorization: string) =>
        node.app.inject({ url, headers: { authorization }, remoteAddress: nat });
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) {
        const node = i % 2 === 0 ? a : b;
        const res =
          i % 3 === 0
            ? await call(node, '/packages.json', basicAuth(`pkt_guess${i}`))
            : await call(node, '/api/v1/customers', `Bearer guess-${i}`);
        statuses.push(res.statusCode);
      }
      // Three failures across two nodes, then every failing attempt is refused on both.
      expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
      expect(statuses.slice(3).every((status) => status === 429)).toBe(true);
      expect(await redis.get(`${prefix}af:${nat}`)).toBe('30');
      for (const node of [a, b]) {
        expect((await call(node, '/api/v1/customers', node.admin.authorization)).statusCode).toBe(
          200,
        );
        expect((await call(node, '/packages.json', customers.get(node)!)).statusCode).toBe(200);
        const bad = await call(node, '/api/v1/customers', 'Bearer guess-again');
        expect(bad.statusCode).toBe(429);
        expect(bad.json()).toMatchObject({ code: 'RATE_LIMITED' });
        expect(Number(bad.headers['retry-after'])).toBeGreaterThan(0);
        expect(Number(bad.headers['retry-after'])).toBeLessThanOrEqual(600);
        const badComposer = await call(node, '/packages.json', basicAuth('pkt_guess-again'));
        expect(badComposer.statusCode).toBe(429);
      }
    } finally {
      await a.close();
      await b.close();
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
  });
});
