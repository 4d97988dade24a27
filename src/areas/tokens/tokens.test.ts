import { jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, waitFor } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import type { DomainEvent } from '../../infra/events.js';
import { buildApp } from '../../app.js';
import { TokenService } from './service.js';

const JWT_SECRET = 'test-jwt-secret-0123456789abcdef';
let t: TestApp;
const events: DomainEvent[] = [];

beforeAll(async () => {
  t = await createTestApp({ JWT_SECRET });
  t.runtime.services.deps.events.subscribe((e) => events.push(e));
});
afterAll(async () => t.close());

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
function call(method: Method, url: string, payload?: object, headers: object = t.admin) {
  return t.app.inject({ method, url: `/api/v1${url}`, headers: { ...headers }, payload });
}

async function newCustomer(): Promise<string> {
  const n = Math.random().toString(36).slice(2);
  const res = await call('POST', '/customers', { name: `C ${n}`, email: `${n}@c.test` });
  return res.json().id;
}

const authenticate = (plain: string) =>
  t.runtime.services.auth.authenticateCustomer('default', plain);

describe('customer tokens', () => {
  it('creates a token that authenticates, shown in plain once', async () => {
    const id = await newCustomer();
    const res = await call('POST', `/customers/${id}/tokens`, {
      name: 'ci',
      scope: 'download',
      package_scopes: ['acme/*', 'other/lib'],
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.plain_token).toMatch(/^pkt_/);
    expect(body.token).toMatchObject({
      name: 'ci',
      scope: 'download',
      package_scopes: ['acme/*', 'other/lib'],
      expires_at: null,
      last_used_at: null,
    });
    expect(body.composer_auth).toEqual({
      username: 'token',
      password: body.plain_token,
      repository_url: 'http://packyard.test',
    });
    const principal = await authenticate(body.plain_token);
    expect(principal).toMatchObject({
      tokenId: body.token.id,
      scope: 'download',
      packageScopes: ['acme/*', 'other/lib'],
    });
    expect(principal?.customer.id).toBe(id);
    expect(events).toContainEqual(
      expect.objectContaining({ customerId: id, activity: 'TOKEN_CREATED' }),
    );

    // Authenticating above records last_used_at; everything else is as created.
    const used = { ...body.token, last_used_at: expect.any(String) };
    const one = await waitFor(
      () => call('GET', `/customers/${id}/tokens/${body.token.id}`),
      (r) => r.json().last_used_at !== null,
    );
    expect(one.json()).toEqual(used);
    const list = await call('GET', `/customers/${id}/tokens`);
    expect(list.json()).toEqual({
      data: [used],
      pagination: { page: 1, per_page: 25, total: 1, total_pages: 1 },
    });
    expect(list.body).not.toContain(body.plain_token);
  });

  it('defaults to admin scope and accepts a future expiry', async () => {
    const id = await newCustomer();
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const res = await call('POST', `/customers/${id}/tokens`, { name: 'x', expires_at: future });
    expect(res.statusCode).toBe(201);
    expect(res.json().token).toMatchObject({
      scope: 'admin',
      package_scopes: [],
      expires_at: future,
    });
  });

  it('rejects a past expiry, bad scopes and unknown fields', async () => {
    const id = await newCustomer();
    const past = new Date(Date.now() - 1000).toISOString();
    const expired = await call('POST', `/customers/${id}/tokens`, { name: 'x', expires_at: past });
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: 'validation_error' });
    expect(expired.json().details[0].field).toBe('expires_at');

    const glob = await call('POST', `/customers/${id}/tokens`, {
      name: 'x',
      package_scopes: ['acme/*', 'Acme/Thing', '*'],
    });
    expect(glob.statusCode).toBe(400);
    expect(glob.json().details.map((d: { field: string }) => d.field)).toEqual([
      'package_scopes.1',
      'package_scopes.2',
    ]);

    const scope = await call('POST', `/customers/${id}/tokens`, { name: 'x', scope: 'root' });
    expect(scope.statusCode).toBe(400);
    const extra = await call('POST', `/customers/${id}/tokens`, { name: 'x', nmae: 'y' });
    expect(extra.json().details).toContainEqual({ field: 'nmae', message: 'unknown field' });
    expect((await call('GET', `/customers/${id}/tokens`)).json().data).toEqual([]);
  });

  it('rotates: new value and id, same settings, old value dead at once', async () => {
    const id = await newCustomer();
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const first = (
      await call('POST', `/customers/${id}/tokens`, {
        name: 'deploy',
        scope: 'developer',
        package_scopes: ['acme/*'],
        expires_at: future,
      })
    ).json();
    const res = await call('POST', `/customers/${id}/tokens/${first.token.id}/rotate`);
    expect(res.statusCode).toBe(201);
    const rotated = res.json();
    expect(rotated.plain_token).not.toBe(first.plain_token);
    expect(rotated.token.id).not.toBe(first.token.id);
    expect(rotated.token).toMatchObject({
      name: 'deploy',
      scope: 'developer',
      package_scopes: ['acme/*'],
      expires_at: future,
    });
    expect(await authenticate(first.plain_token)).toBeNull();
    expect(await authenticate(rotated.plain_token)).not.toBeNull();
    const list = (await call('GET', `/customers/${id}/tokens`)).json();
    expect(list.data.map((x: { id: string }) => x.id)).toEqual([rotated.token.id]);
    const again = await call('POST', `/customers/${id}/tokens/${first.token.id}/rotate`);
    expect(again.statusCode).toBe(404);
  });

  it('revokes: DELETE removes it from the list and it stops working', async () => {
    const id = await newCustomer();
    const a = (await call('POST', `/customers/${id}/tokens`, { name: 'a' })).json();
    const b = (await call('POST', `/customers/${id}/tokens`, { name: 'b' })).json();
    const del = await call('DELETE', `/customers/${id}/tokens/${a.token.id}`);
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    const list = (await call('GET', `/customers/${id}/tokens`)).json();
    expect(list.data.map((x: { name: string }) => x.name)).toEqual(['b']);
    expect(await authenticate(a.plain_token)).toBeNull();
    expect(await authenticate(b.plain_token)).not.toBeNull();
    expect((await call('DELETE', `/customers/${id}/tokens/${a.token.id}`)).statusCode).toBe(404);
    expect((await call('GET', `/customers/${id}/tokens/${a.token.id}`)).statusCode).toBe(404);
    expect(events).toContainEqual(
      expect.objectContaining({ customerId: id, activity: 'TOKEN_REVOKED' }),
    );
  });

  it('keeps tokens to their customer', async () => {
    const one = await newCustomer();
    const two = await newCustomer();
    const a = (await call('POST', `/customers/${one}/tokens`, { name: 'a' })).json();
    expect((await call('GET', `/customers/${two}/tokens/${a.token.id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/customers/${two}/tokens/${a.token.id}`)).statusCode).toBe(404);
  });

  it('legacy regenerate revokes every token and issues one admin token named default', async () => {
    const id = await newCustomer();
    const a = (await call('POST', `/customers/${id}/tokens`, { name: 'a' })).json();
    const b = (
      await call('POST', `/customers/${id}/tokens`, { name: 'b', scope: 'download' })
    ).json();
    const res = await call('POST', `/customers/${id}/token/regenerate`);
    expect(res.statusCode).toBe(201);
    const regen = res.json();
    expect(regen.token).toMatchObject({ name: 'default', scope: 'admin', package_scopes: [] });
    expect(regen.composer_auth.password).toBe(regen.plain_token);
    expect(await authenticate(a.plain_token)).toBeNull();
    expect(await authenticate(b.plain_token)).toBeNull();
    expect(await authenticate(regen.plain_token)).not.toBeNull();
    const list = (await call('GET', `/customers/${id}/tokens`)).json();
    expect(list.data).toHaveLength(1);

    const revokeAll = await call('DELETE', `/customers/${id}/token`);
    expect(revokeAll.statusCode).toBe(204);
    expect(await authenticate(regen.plain_token)).toBeNull();
    expect((await call('GET', `/customers/${id}/tokens`)).json().data).toEqual([]);
  });

  it('answers 404 for an unknown customer', async () => {
    for (const [method, url, body] of [
      ['POST', '/customers/nope/tokens', { name: 'x' }],
      ['GET', '/customers/nope/tokens', undefined],
      ['POST', '/customers/nope/token/regenerate', undefined],
      ['DELETE', '/customers/nope/token', undefined],
      ['POST', '/customers/nope/jwt', {}],
    ] as const) {
      const res = await call(method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Customer not found' });
    }
  });

  it('requires an admin token; viewers may read but not write', async () => {
    const id = await newCustomer();
    expect((await call('GET', `/customers/${id}/tokens`, undefined, {})).statusCode).toBe(401);
    const bad = { authorization: 'Bearer pkt_nope' };
    expect((await call('GET', `/customers/${id}/tokens`, undefined, bad)).statusCode).toBe(401);
    const viewer = (await call('POST', '/team/tokens', { name: 'v', level: 'viewer' })).json();
    const asViewer = { authorization: `Bearer ${viewer.plain_token}` };
    expect((await call('GET', `/customers/${id}/tokens`, undefined, asViewer)).statusCode).toBe(
      200,
    );
    const post = await call('POST', `/customers/${id}/tokens`, { name: 'x' }, asViewer);
    expect(post.statusCode).toBe(403);
    expect(post.json().code).toBe('FORBIDDEN');
    const cust = (await call('POST', `/customers/${id}/tokens`, { name: 'x' })).json();
    const asCustomer = { authorization: `Bearer ${cust.plain_token}` };
    const byCustomer = await call('GET', `/customers/${id}/tokens`, undefined, asCustomer);
    expect(byCustomer.statusCode).toBe(403);
    expect(byCustomer.json().code).toBe('FORBIDDEN');
  });
});

describe('customer JWT', () => {
  it('issues an HS256 JWT that verifies with the secret and authenticates', async () => {
    const id = await newCustomer();
    const res = await call('POST', `/customers/${id}/jwt`);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.token_type).toBe('Bearer');
    const { payload, protectedHeader } = await jwtVerify(
      body.token,
      new TextEncoder().encode(JWT_SECRET),
    );
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload).toMatchObject({
      sub: id,
      tid: 'default',
      scope: 'download',
      package_scopes: [],
    });
    expect(typeof payload.jti).toBe('string');
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(3600);
    expect(body.expires_at).toBe(new Date((payload.exp ?? 0) * 1000).toISOString());
    const principal = await authenticate(body.token);
    expect(principal?.customer.id).toBe(id);

    const custom = await call('POST', `/customers/${id}/jwt`, { expires_in: 120, scope: 'admin' });
    const claims = (await jwtVerify(custom.json().token, new TextEncoder().encode(JWT_SECRET)))
      .payload;
    expect(claims.scope).toBe('admin');
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(120);

    const short = await call('POST', `/customers/${id}/jwt`, { expires_in: 10 });
    expect(short.statusCode).toBe(400);
    expect(short.json().details[0].field).toBe('expires_in');
    const webhook = await call('POST', `/customers/${id}/jwt`, { scope: 'webhook' });
    expect(webhook.statusCode).toBe(400);
  });

  it('is refused without JWT_SECRET', async () => {
    // Same database, services built from a config without the secret (one app per DB schema).
    const deps = t.runtime.services.deps;
    const noSecret = { ...deps, config: { ...deps.config, jwtSecret: null } };
    const app = await buildApp({
      services: { ...t.runtime.services, tokens: new TokenService(noSecret) },
    });
    try {
      const id = await newCustomer();
      const res = await app.inject({
        method: 'POST',
        url: `/api/v1/customers/${id}/jwt`,
        headers: t.admin,
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        error: 'feature_not_available',
        code: 'FEATURE_NOT_AVAILABLE',
        message: 'JWT_SECRET is not configured',
      });
    } finally {
      await app.close();
    }
  });
});
