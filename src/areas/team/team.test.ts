import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

type Method = 'GET' | 'POST' | 'DELETE';
function call(method: Method, url: string, headers: object, payload?: object) {
  return t.app.inject({ method, url: `/api/v1${url}`, headers: { ...headers }, payload });
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function teamToken(level: string, as: object = t.admin) {
  const res = await call('POST', '/team/tokens', as, { name: `${level} token`, level });
  expect(res.statusCode).toBe(201);
  return res.json();
}

describe('team (CMA) tokens', () => {
  it('creates, lists and deletes; a deleted token is 401', async () => {
    const created = await teamToken('admin');
    expect(created.plain_token).toMatch(/^cma_/);
    expect(created.token).toMatchObject({
      name: 'admin token',
      level: 'admin',
      last_used_at: null,
    });
    expect(Object.keys(created.token).sort()).toEqual([
      'created_at',
      'id',
      'last_used_at',
      'level',
      'name',
    ]);

    const list = await call('GET', '/team/tokens', t.admin);
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toContainEqual(created.token);
    expect(list.json().pagination).toMatchObject({ page: 1, per_page: 25 });
    expect(list.body).not.toContain(created.plain_token);

    const asIt = bearer(created.plain_token);
    expect((await call('GET', '/customers', asIt)).statusCode).toBe(200);
    const del = await call('DELETE', `/team/tokens/${created.token.id}`, t.admin);
    expect(del.statusCode).toBe(204);
    const after = await call('GET', '/customers', asIt);
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('UNAUTHORIZED');
    expect((await call('DELETE', `/team/tokens/${created.token.id}`, t.admin)).statusCode).toBe(
      404,
    );
  });

  it('lets owners manage the team and every level read the list', async () => {
    const owner = bearer((await teamToken('owner')).plain_token);
    const made = await teamToken('viewer', owner);
    expect(made.token.level).toBe('viewer');
    expect((await call('GET', '/team/tokens', owner)).statusCode).toBe(200);

    const admin = bearer((await teamToken('admin')).plain_token);
    const viewer = bearer(made.plain_token);
    for (const as of [admin, viewer]) {
      for (const [method, url, body] of [
        ['POST', '/team/tokens', { name: 'x', level: 'owner' }],
        ['DELETE', `/team/tokens/${made.token.id}`, undefined],
      ] as const) {
        const res = await call(method, url, as, body);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json().code).toBe('FORBIDDEN');
      }
      const list = await call('GET', '/team/tokens', as);
      expect(list.statusCode).toBe(200);
      const { id, name, level } = made.token;
      expect(list.json().data).toContainEqual(expect.objectContaining({ id, name, level }));
    }
    // Nothing was created or revoked by the refused calls: the viewer token still works.
    expect((await call('GET', '/customers', viewer)).statusCode).toBe(200);
  });

  it('never lists a token value or its digest', async () => {
    const made = await teamToken('owner');
    const viewer = bearer((await teamToken('viewer')).plain_token);
    const list = await call('GET', '/team/tokens?per_page=100', viewer);
    expect(list.statusCode).toBe(200);
    const digests = (await t.db.selectFrom('team_tokens').select('token_digest').execute()).map(
      (r) => r.token_digest,
    );
    expect(digests.length).toBeGreaterThan(1);
    for (const secret of [made.plain_token, ...digests]) expect(list.body).not.toContain(secret);
    expect(list.body).not.toContain('cma_');
    for (const token of list.json().data) {
      expect(Object.keys(token).sort()).toEqual([
        'created_at',
        'id',
        'last_used_at',
        'level',
        'name',
      ]);
    }
  });

  it('makes viewers read-only', async () => {
    const viewer = bearer((await teamToken('viewer')).plain_token);
    expect((await call('GET', '/customers', viewer)).statusCode).toBe(200);
    const post = await call('POST', '/customers', viewer, { name: 'V', email: 'v@v.test' });
    expect(post.statusCode).toBe(403);
    expect(post.json()).toMatchObject({ error: 'forbidden', code: 'FORBIDDEN' });
  });

  it('validates the body and requires a token', async () => {
    const bad = await call('POST', '/team/tokens', t.admin, { name: 'x', level: 'god' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].field).toBe('level');
    const extra = await call('POST', '/team/tokens', t.admin, { name: 'x', level: 'admin', a: 1 });
    expect(extra.json().details).toContainEqual({ field: 'a', message: 'unknown field' });
    expect((await call('GET', '/team/tokens', {})).statusCode).toBe(401);
    expect((await call('GET', '/team/tokens', bearer('cma_nope'))).statusCode).toBe(401);
  });
});
