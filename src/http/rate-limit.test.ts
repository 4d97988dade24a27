import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { ConfigError, loadConfig } from '../config/index.js';
import {
  ADMIN_TOKEN,
  TEST_REDIS_URL as REDIS_URL,
  basicAuth,
  createTestApp,
} from '../../test/helpers.js';
import type { TestApp } from '../../test/helpers.js';
import { adminApi, addSyncedPackage, createCustomer } from '../../test/factories.js';
import { GitFixture } from '../../test/fixtures/git-repo.js';
import { startServer } from '../../test/e2e/server.js';
import type { RunningServer } from '../../test/e2e/server.js';
import { rateLimitKey } from './rate-limit.js';
import { WindowCounter } from '../infra/window-counter.js';

type Headers = Record<string, string | string[] | number | undefined>;

function expectLimitHeaders(headers: Headers, limit: number, remaining: number): void {
  expect(headers['ratelimit-limit']).toBe(String(limit));
  expect(headers['ratelimit-remaining']).toBe(String(remaining));
  const reset = Number(headers['ratelimit-reset']);
  expect(reset).toBeGreaterThan(0);
  expect(reset).toBeLessThanOrEqual(60);
}

function expectRateLimited(res: { statusCode: number; headers: Headers; json(): unknown }): void {
  expect(res.statusCode).toBe(429);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(res.headers['ratelimit-remaining']).toBe('0');
  const body = res.json() as Record<string, unknown>;
  expect(body).toEqual({
    error: 'rate_limited',
    code: 'RATE_LIMITED',
    message: expect.stringMatching(/^Rate limit exceeded/) as unknown,
  });
}

describe('rate-limit settings', () => {
  it('default to 600 admin and 6000 composer requests per minute, without Redis', () => {
    const c = loadConfig({});
    expect(c.rateLimitAdminPerMinute).toBe(600);
    expect(c.rateLimitComposerPerMinute).toBe(6000);
    expect(c.redisUrl).toBeNull();
    expect(c.redisKeyPrefix).toBe('packyard:');
  });
  it('are validated', () => {
    expect(() => loadConfig({ RATE_LIMIT_ADMIN_PER_MINUTE: '-1' })).toThrow(ConfigError);
    expect(() => loadConfig({ RATE_LIMIT_COMPOSER_PER_MINUTE: 'lots' })).toThrow(
      /RATE_LIMIT_COMPOSER_PER_MINUTE/,
    );
    expect(() => loadConfig({ REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(/REDIS_URL/);
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379/2' }).redisUrl).toBe(
      'redis://127.0.0.1:6379/2',
    );
    expect(loadConfig({ RATE_LIMIT_ADMIN_PER_MINUTE: '0' }).rateLimitAdminPerMinute).toBe(0);
  });
});

describe('rate-limit keys', () => {
  it('are the SHA-256 of the secret, never the secret, and the IP without credentials', () => {
    const secret = 'pky_very-secret-value';
    const sha = crypto.createHash('sha256').update(secret).digest('hex');
    expect(rateLimitKey(`Bearer ${secret}`, '10.0.0.1')).toBe(`t:${sha}`);
    expect(rateLimitKey(basicAuth(secret), '10.0.0.1')).toBe(`t:${sha}`);
    expect(rateLimitKey('Digest nonsense', '10.0.0.1')).not.toContain('nonsense');
    expect(rateLimitKey(undefined, '10.0.0.1')).toBe('ip:10.0.0.1');
  });
  it('count per fixed window', () => {
    const counter = new WindowCounter(1000);
    expect(counter.hit('a', 0)).toEqual({ current: 1, ttl: 1000 });
    expect(counter.hit('a', 400)).toEqual({ current: 2, ttl: 600 });
    expect(counter.hit('b', 400)).toEqual({ current: 1, ttl: 1000 });
    expect(counter.hit('a', 1000)).toEqual({ current: 1, ttl: 1000 });
  });
});

describe('admin API rate limit (in memory)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_ADMIN_PER_MINUTE: '3', WORKER: 'off' });
  });
  afterAll(async () => t.close());

  it('answers 429 RATE_LIMITED with Retry-After after N requests, with headers on every answer', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ url: '/api/v1/customers', headers: t.admin });
      expect(res.statusCode).toBe(200);
      expectLimitHeaders(res.headers, 3, 2 - i);
    }
    const res = await t.app.inject({ url: '/api/v1/customers', headers: t.admin });
    expectRateLimited(res);
    expectLimitHeaders(res.headers, 3, 0);
    // Every admin route shares the token's bucket.
    expectRateLimited(await t.app.inject({ url: '/api/v1/packages', headers: t.admin }));
  });

  it('keeps a separate bucket per token, and per IP without credentials', async () => {
    const other = { authorization: 'Bearer some-other-token-0123456789' };
    const res = await t.app.inject({ url: '/api/v1/customers', headers: other });
    expect(res.statusCode).toBe(401);
    expectLimitHeaders(res.headers, 3, 2);
    const anonymous = await t.app.inject({ url: '/api/v1/customers' });
    expect(anonymous.statusCode).toBe(401);
    expectLimitHeaders(anonymous.headers, 3, 2);
  });

  it('leaves health and metrics alone', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({ url: '/healthz' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-limit']).toBeUndefined();
    }
    const metrics = await t.app.inject({ url: '/metrics' });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.headers['ratelimit-limit']).toBeUndefined();
  });

  it('does not count against the Composer limit', async () => {
    const res = await t.app.inject({ url: '/packages.json', headers: t.admin });
    expect(res.headers['ratelimit-limit']).toBe('6000');
  });
});

describe('Composer rate limit (in memory)', () => {
  let t: TestApp;
  let first: string;
  let second: string;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_COMPOSER_PER_MINUTE: '3', WORKER: 'off' });
    const api = adminApi(t);
    const customer = await createCustomer(t, 'Limited');
    const tokens = `/api/v1/customers/${customer.id}/tokens`;
    first = basicAuth((await api('POST', tokens, { name: 'a' })).plain_token);
    second = basicAuth((await api('POST', tokens, { name: 'b' })).plain_token);
  });
  afterAll(async () => t.close());

  it('limits each token separately across the Composer routes', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ url: '/packages.json', headers: { authorization: first } });
      expect(res.statusCode).toBe(200);
      expectLimitHeaders(res.headers, 3, 2 - i);
    }
    expectRateLimited(
      await t.app.inject({ url: '/packages.json', headers: { authorization: first } }),
    );
    expectRateLimited(
      await t.app.inject({ url: '/p2/acme/none.json', headers: { authorization: first } }),
    );
    expectRateLimited(
      await t.app.inject({
        method: 'POST',
        url: '/downloads/',
        headers: { authorization: first },
        payload: {},
      }),
    );
    const other = await t.app.inject({ url: '/packages.json', headers: { authorization: second } });
    expect(other.statusCode).toBe(200);
    expectLimitHeaders(other.headers, 3, 2);
    // The admin API keeps its own counters for the same secret.
    const admin = await t.app.inject({ url: '/api/v1/customers', headers: t.admin });
    expect(admin.statusCode).toBe(200);
    expect(admin.headers['ratelimit-limit']).toBe('600');
  });
});

describe('limits set to 0', () => {
  it('turn rate limiting off', async () => {
    const t = await createTestApp({
      RATE_LIMIT_ADMIN_PER_MINUTE: '0',
      RATE_LIMIT_COMPOSER_PER_MINUTE: '0',
      WORKER: 'off',
    });
    try {
      const res = await t.app.inject({ url: '/api/v1/customers', headers: t.admin });
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-limit']).toBeUndefined();
      const composer = await t.app.inject({ url: '/packages.json', headers: t.admin });
      expect(composer.headers['ratelimit-limit']).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});

describe('p2 fast path over real HTTP', () => {
  let s: RunningServer;
  let repo: GitFixture;
  let auth: string;
  beforeAll(async () => {
    s = await startServer({ RATE_LIMIT_COMPOSER_PER_MINUTE: '5' });
    repo = new GitFixture('acme/limited');
    repo.release('1.0.0');
    await addSyncedPackage(s, 'acme/limited', repo.url);
    const api = adminApi(s);
    const customer = await createCustomer(s, 'FastLimited');
    await api('POST', `/api/v1/customers/${customer.id}/packages`, {
      package: 'acme/limited',
      constraint: '*',
    });
    const token = await api('POST', `/api/v1/customers/${customer.id}/tokens`, { name: 't' });
    auth = basicAuth(token.plain_token);
  });
  afterAll(async () => {
    await s.close();
    repo.remove();
  });

  it('counts cache hits answered before Fastify: the 6th answer is 429 with Retry-After', async () => {
    const hits = s.app.p2FastPath.hits;
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 6; i++) {
      last = await fetch(`${s.url}/p2/acme/limited.json`, { headers: { authorization: auth } });
      statuses.push(last.status);
      if (i < 5) {
        expect(last.headers.get('ratelimit-limit')).toBe('5');
        expect(last.headers.get('ratelimit-remaining')).toBe(String(4 - i));
        await last.arrayBuffer();
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    // The first answer was computed by the route, the others (the 429 too) by the fast path.
    expect(s.app.p2FastPath.hits).toBe(hits + 5);
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last?.headers.get('ratelimit-remaining')).toBe('0');
    expect(await last?.json()).toEqual({
      error: 'rate_limited',
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/^Rate limit exceeded/) as unknown,
    });
    // Routed Composer requests share the same counters.
    const root = await fetch(`${s.url}/packages.json`, { headers: { authorization: auth } });
    expect(root.status).toBe(429);
  });
});

describe('Redis store', () => {
  const prefix = `packyard-test-${crypto.randomBytes(6).toString('hex')}:`;
  const env = {
    REDIS_URL,
    REDIS_KEY_PREFIX: prefix,
    RATE_LIMIT_ADMIN_PER_MINUTE: '3',
    RATE_LIMIT_COMPOSER_PER_MINUTE: '4',
    WORKER: 'off',
  };
  let a: TestApp;
  let b: TestApp;
  let redis: Redis;
  beforeAll(async () => {
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    a = await createTestApp(env);
    b = await createTestApp(env);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('shares counters between two app instances', async () => {
    const ask = (t: TestApp) => t.app.inject({ url: '/api/v1/customers', headers: t.admin });
    const r1 = await ask(a);
    expectLimitHeaders(r1.headers, 3, 2);
    const r2 = await ask(b);
    expect(r2.statusCode).toBe(200);
    expectLimitHeaders(r2.headers, 3, 1);
    expect((await ask(a)).statusCode).toBe(200);
    expectRateLimited(await ask(b));
    expect(await redis.keys(`${prefix}*`)).not.toHaveLength(0);
    // Keys hold the token's digest, never the token.
    for (const key of await redis.keys(`${prefix}*`)) expect(key).not.toContain(ADMIN_TOKEN);
  });

  it('limits the Composer surface on its own counters', async () => {
    const ask = (t: TestApp) =>
      t.app.inject({ url: '/packages.json', headers: { authorization: 'Bearer nobody-at-all' } });
    for (let i = 0; i < 4; i++) {
      const res = await ask(i % 2 === 0 ? a : b);
      expect(res.statusCode).toBe(401);
      expectLimitHeaders(res.headers, 4, 3 - i);
    }
    expectRateLimited(await ask(a));
  });
});

describe('failed authentications from one address (in memory)', () => {
  // Many customers' CI machines share one NAT address: one of them guessing (or misconfigured)
  // must not lock the others out.
  let s: RunningServer;
  let repo: GitFixture;
  let customer: string;
  beforeAll(async () => {
    s = await startServer({ AUTH_FAILURE_LIMIT: '5' });
    repo = new GitFixture('acme/shared-nat');
    repo.release('1.0.0');
    await addSyncedPackage(s, 'acme/shared-nat', repo.url);
    const api = adminApi(s);
    const { id } = await createCustomer(s, 'SharedNat');
    await api('POST', `/api/v1/customers/${id}/packages`, {
      package: 'acme/shared-nat',
      constraint: '*',
    });
    customer = basicAuth(
      (await api('POST', `/api/v1/customers/${id}/tokens`, { name: 'ci' })).plain_token,
    );
  });
  afterAll(async () => {
    await s.close();
    repo.remove();
  });

  const get = async (path: string, authorization: string) => {
    const res = await fetch(`${s.url}${path}`, { headers: { authorization } });
    return { status: res.status, headers: res.headers, body: await res.json() };
  };
  const graphql = async (authorization: string) => {
    const res = await fetch(`${s.url}/graphql`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ customers { totalCount } }' }),
    });
    return { status: res.status, headers: res.headers, body: await res.json() };
  };
  const tooMany = {
    error: 'rate_limited',
    code: 'RATE_LIMITED',
    message: expect.stringMatching(/^Too many failed authentications/) as unknown,
  };

  it('never refuse a valid admin or customer token; failing ones get 429 with Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res =
        i % 2 === 0
          ? await get('/api/v1/customers', `Bearer guess-${i}`)
          : await get('/packages.json', basicAuth(`pkt_guess${i}`));
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5).every((status) => status === 429)).toBe(true);

    // A valid admin token from the same address: REST and GraphQL.
    expect((await get('/api/v1/customers', `Bearer ${ADMIN_TOKEN}`)).status).toBe(200);
    const gql = await graphql(`Bearer ${ADMIN_TOKEN}`);
    expect(gql.status).toBe(200);
    expect(gql.body).toMatchObject({ data: { customers: { totalCount: 1 } } });
    // A valid customer token: the Composer routes, and p2 from the fast path.
    expect((await get('/packages.json', customer)).status).toBe(200);
    const hits = s.app.p2FastPath.hits;
    for (let i = 0; i < 2; i++) {
      const p2 = await get('/p2/acme/shared-nat.json', customer);
      expect(p2.status).toBe(200);
      expect(p2.body).toMatchObject({ packages: { 'acme/shared-nat': expect.any(Array) } });
    }
    expect(s.app.p2FastPath.hits).toBeGreaterThan(hits);

    // Failing attempts are still refused on every surface, told when to come back.
    for (const [path, authorization] of [
      ['/api/v1/customers', 'Bearer guess-again'],
      ['/packages.json', basicAuth('pkt_guess-again')],
      ['/p2/acme/shared-nat.json', basicAuth('pkt_guess-again')],
    ] as const) {
      const bad = await get(path, authorization);
      expect(bad.status, path).toBe(429);
      expect(Number(bad.headers.get('retry-after')), path).toBeGreaterThan(0);
      expect(bad.body, path).toEqual(tooMany);
    }
    // GraphQL answers its errors with 200 and the code in extensions, Retry-After set.
    const badGql = await graphql('Bearer guess-again');
    expect(badGql.body).toMatchObject({
      data: null,
      errors: [{ extensions: { code: 'RATE_LIMITED' } }],
    });
    expect(Number(badGql.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
