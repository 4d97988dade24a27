import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from './helpers.js';
import type { TestApp } from './helpers.js';

let t: TestApp;
let viewer: string;
let routes: { method: string; url: string }[];

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
    for (const route of routes) {
      for (const headers of [{}, { authorization: 'Bearer not-a-real-token' }]) {
        const res = await t.app.inject({ method: route.method as 'GET', url: route.url, headers });
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
        expect(res.json()).toMatchObject({ error: 'unauthorized', code: 'UNAUTHORIZED' });
      }
    }
  });

  it('lets a viewer read but refuses every write with 403 FORBIDDEN', async () => {
    const headers = { authorization: `Bearer ${viewer}` };
    for (const route of routes) {
      const res = await t.app.inject({ method: route.method as 'GET', url: route.url, headers });
      if (route.method === 'GET') {
        expect(res.statusCode, `${route.method} ${route.url}`).not.toBe(401);
        // A feature that is off (e.g. the GitHub App unconfigured) may answer 403
        // FEATURE_NOT_AVAILABLE; a viewer is never refused for its level on a read, team tokens
        // included (decisions.md 4).
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
    // The two routes customer tokens may call (decisions.md 3 and 4).
    const customerRoutes = new Set([
      'POST /api/v1/packages/x/x/sync',
      'POST /api/v1/packages/x/x/artifacts',
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

  it('serves the OpenAPI document and its browser UI', async () => {
    const doc = await t.app.inject({ url: '/api/openapi.json' });
    expect(doc.json().openapi).toMatch(/^3\./);
    const ui = await t.app.inject({ url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
  });
});
