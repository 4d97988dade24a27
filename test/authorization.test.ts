import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { ADMIN_TOKEN, createTestApp } from './helpers.js';
import type { TestApp } from './helpers.js';
import type { Ctx } from '../src/context.js';
import { ANONYMOUS } from '../src/areas/auth/authorize.js';
import { authenticateAdminRequest, ctxOf } from '../src/http/auth.js';
import { mapError } from '../src/http/error-mapper.js';
import { ROUTE_OPERATIONS, routeRule } from '../src/http/route-operations.js';

let t: TestApp;
let viewer: string;
let routes: { method: string; url: string }[];

/** Routes anyone may call without credentials: the portal's branding (docs/portal.md). */
const PUBLIC_ROUTES = new Set(['GET /api/v1/portal']);
/**
 * The customer portal's API (docs/portal.md): customer tokens only; an admin token, whatever its
 * level, is refused with 403 FORBIDDEN (admins use the admin API).
 */
const PORTAL_ROUTES = new Set([
  'GET /api/v1/me',
  'GET /api/v1/me/packages',
  'GET /api/v1/me/packages/x/x',
  'GET /api/v1/me/tokens',
  'POST /api/v1/me/tokens',
  'DELETE /api/v1/me/tokens/x',
]);
const nameOf = (route: { method: string; url: string }) => `${route.method} ${route.url}`;

beforeAll(async () => {
  // The sweep sends hundreds of bad tokens from one address: the failure limit has its own test.
  t = await createTestApp({ AUTH_FAILURE_LIMIT: '0' });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/team/tokens',
    headers: t.admin,
    payload: { name: 'read only', level: 'viewer' },
  });
  viewer = res.json().plain_token;
  // Every admin route, from the OpenAPI document generated from the route schemas.
  const doc = (await t.app.inject({ url: '/api/openapi.json' })).json<{
    paths: Record<string, Record<string, unknown>>;
  }>();
  routes = Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/api/v1/'))
    .flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => ({
        method: method.toUpperCase(),
        url: path.replace(/\{[^}]+\}/g, 'x'),
      })),
    );
});
afterAll(async () => t.close());

describe('admin API authorization, route by route', () => {
  it('covers the admin surface', () => {
    expect(routes.length).toBeGreaterThan(40);
  });

  it('answers 401 with the contract body to a missing or unknown token on every route', async () => {
    expect(routes.filter((r) => PUBLIC_ROUTES.has(nameOf(r)))).toHaveLength(PUBLIC_ROUTES.size);
    for (const route of routes) {
      for (const headers of [{}, { authorization: 'Bearer not-a-real-token' }]) {
        const res = await t.app.inject({ method: route.method as 'GET', url: route.url, headers });
        if (PUBLIC_ROUTES.has(nameOf(route))) {
          expect(res.statusCode, nameOf(route)).toBe(200);
          continue;
        }
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
        expect(res.json()).toMatchObject({ error: 'unauthorized', code: 'UNAUTHORIZED' });
      }
    }
  });

  it('lets a viewer read but refuses every write with 403 FORBIDDEN', async () => {
    const headers = { authorization: `Bearer ${viewer}` };
    for (const route of routes) {
      const res = await t.app.inject({ method: route.method as 'GET', url: route.url, headers });
      if (PORTAL_ROUTES.has(nameOf(route))) {
        expect(res.statusCode, nameOf(route)).toBe(403);
        expect(res.json().code, nameOf(route)).toBe('FORBIDDEN');
      } else if (route.method === 'GET') {
        expect(res.statusCode, `${route.method} ${route.url}`).not.toBe(401);
        // A feature that is off (e.g. the GitHub App unconfigured) may answer 403
        // FEATURE_NOT_AVAILABLE; a viewer is never refused for its level on a read, team tokens
        // included (docs/access.md).
        if (res.statusCode === 403) {
          expect(res.json().code, `${route.method} ${route.url}`).toBe('FEATURE_NOT_AVAILABLE');
        }
      } else {
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
        expect(res.json().code).toBe('FORBIDDEN');
      }
    }
  });

  it('lets a viewer list team tokens, without their values, but not create or revoke them', async () => {
    const headers = { authorization: `Bearer ${viewer}` };
    expect(routes).toContainEqual({ method: 'GET', url: '/api/v1/team/tokens' });
    const list = await t.app.inject({ url: '/api/v1/team/tokens', headers });
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toContainEqual(expect.objectContaining({ level: 'viewer' }));
    expect(list.body).not.toContain(viewer);
    const create = await t.app.inject({
      method: 'POST',
      url: '/api/v1/team/tokens',
      headers,
      payload: { name: 'x', level: 'owner' },
    });
    expect(create.statusCode).toBe(403);
    expect(create.json().code).toBe('FORBIDDEN');
  });

  it('refuses a valid customer token with 403 FORBIDDEN where customer tokens have no say', async () => {
    const customer = (
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/customers',
        headers: t.admin,
        payload: { name: 'Composer user', email: 'composer@user.test' },
      })
    ).json();
    const token = (
      await t.app.inject({
        method: 'POST',
        url: `/api/v1/customers/${customer.id}/tokens`,
        headers: t.admin,
        payload: { name: 'ci', scope: 'admin' },
      })
    ).json().plain_token as string;
    // The routes customer tokens may call (docs/api.md, docs/access.md, docs/portal.md).
    const customerRoutes = new Set([
      'POST /api/v1/packages/x/x/sync',
      'POST /api/v1/packages/x/x/artifacts',
      ...PORTAL_ROUTES,
      ...PUBLIC_ROUTES,
    ]);
    const headers = { authorization: `Bearer ${token}` };
    for (const route of routes) {
      const res = await t.app.inject({ method: route.method as 'GET', url: route.url, headers });
      const name = `${route.method} ${route.url}`;
      expect(res.statusCode, name).not.toBe(401);
      if (!customerRoutes.has(name)) {
        expect(res.statusCode, name).toBe(403);
        expect(res.json().code, name).toBe('FORBIDDEN');
      }
    }
  });

  it('lets the owner through to the operation of every route, with a real context', async () => {
    for (const route of routes) {
      const res = await t.app.inject({
        method: route.method as 'GET',
        url: route.url,
        headers: t.admin,
      });
      const name = `${route.method} ${route.url}`;
      expect(res.statusCode, `${name}: ${res.body}`).not.toBe(401);
      // The portal refuses admins (a POST without its body is refused for the body first).
      if (PORTAL_ROUTES.has(name)) expect([400, 403], name).toContain(res.statusCode);
      else if (res.statusCode === 403) {
        expect(res.json().code, name).toBe('FEATURE_NOT_AVAILABLE');
      }
    }
  });

  it('serves the OpenAPI document and its browser UI', async () => {
    const doc = await t.app.inject({ url: '/api/openapi.json' });
    expect(doc.json().openapi).toMatch(/^3\./);
    const ui = await t.app.inject({ url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
  });
});

describe('the guarded services, whatever the transport', () => {
  const owner: Ctx = { tenantId: 'default', actor: { kind: 'root', id: null, level: 'owner' } };
  const system: Ctx = { tenantId: 'default', actor: { kind: 'system', id: null } };

  it('refuse a call without a context, and a request passed as one', async () => {
    const { customers } = t.runtime.services;
    const page = { offset: 0, limit: 1 };
    await expect(customers.list(undefined as never, page)).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
    // What REST used to pass: the whole request, which has an actor and a tenant.
    const request: Ctx = Object.assign(Object.create({ raw: {} }) as object, owner);
    await expect(customers.list(request, page)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await customers.list({ ...owner }, page)).total).toBeGreaterThan(0);
  });

  it('keep internal operations (tasks.enqueue) to background work', async () => {
    const { tasks } = t.runtime.services;
    await expect(tasks.enqueue(owner, 'authz.test', {})).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(tasks.syncAll('default')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await tasks.enqueue(system, 'authz.test', {})).type).toBe('authz.test');
  });

  it('run a public route as the anonymous actor, who may not write', async () => {
    const app = Fastify();
    app.decorate('services', t.runtime.services);
    app.decorateRequest('tenantId', 'default');
    app.decorateRequest('actor', null as never);
    app.decorateRequest('userAgent', null);
    app.decorateRequest('customerPrincipal', null);
    app.setErrorHandler((err, _req, reply) => {
      const mapped = mapError(err);
      return reply.code(mapped.status).send(mapped.body);
    });
    // No boot check here (it refuses this route): the request-time layers must hold alone.
    app.addHook('onRequest', authenticateAdminRequest);
    const ctxs: Ctx[] = [];
    app.post('/api/v1/customers', { config: { auth: { public: true } } }, async (req) => {
      ctxs.push(ctxOf(req));
      return t.runtime.services.customers.create(ctxOf(req), { name: 'Anon', email: 'a@a.test' });
    });
    const res = await app.inject({ method: 'POST', url: '/api/v1/customers' });
    expect(res.statusCode).toBe(401);
    expect(ctxs).toEqual([]);
    const anonymous: Ctx = { tenantId: 'default', actor: ANONYMOUS };
    const create = t.runtime.services.customers.create(anonymous, { name: 'A', email: 'a@a.test' });
    await expect(create).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await app.close();
  });
});

describe('the platform API (Cloud), route by route', () => {
  const PLATFORM = 'platform-token-0123456789abcdef';
  let cloud: TestApp;
  beforeAll(async () => {
    cloud = await createTestApp({
      EDITION: 'cloud',
      PLATFORM_ADMIN_TOKEN: PLATFORM,
      AUTH_FAILURE_LIMIT: '0',
    });
  });
  afterAll(async () => cloud.close());

  it('names a platform operation for every route, which only PLATFORM_ADMIN_TOKEN runs', async () => {
    const doc = cloud.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const platform = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/v1/tenants'))
      .flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })),
      );
    expect(platform.length).toBeGreaterThanOrEqual(10);
    for (const { method, path } of platform) {
      const registered = path.replace(/\{([^}]+)\}/g, ':$1');
      const name = `${method} ${registered}`;
      expect(ROUTE_OPERATIONS[name], name).toMatch(/^tenants\./);
      expect(routeRule(method, registered).platform, name).toBe(true);
      const url = path.replace(/\{[^}]+\}/g, 'x');
      const inject = (authorization?: string) =>
        cloud.app.inject({
          method: method as 'GET',
          url,
          headers: { host: 'packyard.test', ...(authorization ? { authorization } : {}) },
        });
      expect((await inject()).statusCode, name).toBe(401);
      expect((await inject(`Bearer ${ADMIN_TOKEN}`)).statusCode, name).toBe(401);
      expect([401, 403], name).not.toContain((await inject(`Bearer ${PLATFORM}`)).statusCode);
    }
  });
});
