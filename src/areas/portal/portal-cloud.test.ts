import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudTenant, createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';

// The portal API in the Cloud edition (each tenant on its own host) and with customer JWTs.
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    EDITION: 'cloud',
    JWT_SECRET: 'test-jwt-secret-0123456789abcdef',
    WORKER: 'off',
  });
});
afterAll(async () => t?.close());

type Method = 'GET' | 'POST' | 'PATCH';
const call = (method: Method, url: string, headers: Record<string, string>, payload?: object) =>
  t.app.inject({ method, url, headers, payload });

async function customerToken(admin: { host: string; authorization: string }, scope = 'admin') {
  const c = await call('POST', '/api/v1/customers', admin, { name: 'Acme', email: 'a@acme.test' });
  expect(c.statusCode, c.body).toBe(201);
  const token = await call('POST', `/api/v1/customers/${c.json().id}/tokens`, admin, {
    name: 'laptop',
    scope,
  });
  return { id: c.json().id as string, plain: token.json().plain_token as string };
}

describe('the customer portal API in Cloud', () => {
  it('answers a token on its own tenant only, with that tenant host and branding', async () => {
    const alpha = await cloudTenant(t, 'alpha');
    const bravo = await cloudTenant(t, 'bravo');
    const mine = await customerToken(alpha.admin);
    const bearer = { authorization: `Bearer ${mine.plain}` };

    const me = await call('GET', '/api/v1/me', { host: alpha.host, ...bearer });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json().customer.id).toBe(mine.id);
    expect((await call('GET', '/api/v1/me', { host: bravo.host, ...bearer })).statusCode).toBe(401);
    const none = await call('GET', '/api/v1/me/packages', { host: alpha.host, ...bearer });
    expect(none.json()).toEqual({
      data: [],
      pagination: { page: 1, per_page: 25, total: 0, total_pages: 0 },
    });

    await call('PATCH', '/api/v1/settings', alpha.admin, {
      portal: { title: 'Alpha Packages', accent_color: '#112233' },
    });
    const alphaInfo = (await call('GET', '/api/v1/portal', { host: alpha.host })).json();
    expect(alphaInfo).toMatchObject({ title: 'Alpha Packages', accent_color: '#112233' });
    expect(new URL(alphaInfo.repository_url).host).toBe(alpha.host);
    const bravoInfo = (await call('GET', '/api/v1/portal', { host: bravo.host })).json();
    expect(bravoInfo).toMatchObject({ title: null, accent_color: null });
    expect(new URL(bravoInfo.repository_url).host).toBe(bravo.host);

    // A token made in the portal carries the tenant's own repository URL.
    const made = await call(
      'POST',
      '/api/v1/me/tokens',
      { host: alpha.host, ...bearer },
      {
        name: 'ci',
      },
    );
    expect(made.statusCode, made.body).toBe(201);
    expect(new URL(made.json().composer_auth.repository_url).host).toBe(alpha.host);
    expect(made.json().token.scope).toBe('download');
  });

  it('takes a customer JWT like a token, and keeps its writes to scope admin', async () => {
    const gamma = await cloudTenant(t, 'gamma');
    const c = await customerToken(gamma.admin);
    for (const scope of ['download', 'admin'] as const) {
      const jwt = await call('POST', `/api/v1/customers/${c.id}/jwt`, gamma.admin, { scope });
      expect(jwt.statusCode, jwt.body).toBe(201);
      const headers = { host: gamma.host, authorization: `Bearer ${jwt.json().token}` };
      const me = await call('GET', '/api/v1/me', headers);
      expect(me.statusCode, me.body).toBe(200);
      expect(me.json().token).toMatchObject({ name: 'JWT', scope, expires_at: expect.any(String) });
      expect(me.json().token.id).toMatch(/^jwt:/);
      const list = await call('GET', '/api/v1/me/tokens', headers);
      expect(list.json().data.map((x: { name: string }) => x.name)).toContain('laptop');
      const create = await call('POST', '/api/v1/me/tokens', headers, { name: `by ${scope}` });
      expect(create.statusCode, create.body).toBe(scope === 'admin' ? 201 : 403);
    }
  });
});
