import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

async function create(body: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/customers',
    headers: t.admin,
    payload: body,
  });
}

describe('customers', () => {
  it('creates, reads, lists, updates and deletes', async () => {
    const res = await create({ name: 'Acme', email: 'ops@acme.test', external_id: 'ext-1' });
    expect(res.statusCode).toBe(201);
    const c = res.json();
    expect(c).toMatchObject({ name: 'Acme', status: 'ACTIVE', external_id: 'ext-1' });
    expect(c.created_at).toMatch(/Z$/);

    const got = await t.app.inject({ url: `/api/v1/customers/${c.id}`, headers: t.admin });
    expect(got.json()).toEqual(c);
    const byExt = await t.app.inject({
      url: '/api/v1/customers/by-external/ext-1',
      headers: t.admin,
    });
    expect(byExt.json().id).toBe(c.id);

    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/customers/${c.id}`,
      headers: t.admin,
      payload: { name: 'Acme Inc' },
    });
    expect(patched.json()).toMatchObject({ name: 'Acme Inc', email: 'ops@acme.test' });

    const list = await t.app.inject({ url: '/api/v1/customers?per_page=1', headers: t.admin });
    expect(list.json().pagination).toMatchObject({ page: 1, per_page: 1 });

    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/customers/${c.id}`,
      headers: t.admin,
    });
    expect(del.statusCode).toBe(204);
    const gone = await t.app.inject({ url: `/api/v1/customers/${c.id}`, headers: t.admin });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({
      error: 'not_found',
      code: 'NOT_FOUND',
      message: 'Customer not found',
    });
  });

  it('rejects duplicates, unknown fields, bad JSON and bad paging with the contract body', async () => {
    await create({ name: 'A', email: 'a@a.test', external_id: 'dup' });
    const dup = await create({ name: 'B', email: 'b@b.test', external_id: 'dup' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().code).toBe('CONFLICT');

    const unknown = await create({ name: 'A', email: 'a@a.test', nme: 'x' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ error: 'validation_error', code: 'VALIDATION_ERROR' });
    expect(unknown.json().details).toContainEqual({ field: 'nme', message: 'unknown field' });

    const badEmail = await create({ name: 'A', email: 'nope' });
    expect(badEmail.json().details[0].field).toBe('email');

    const badJson = await t.app.inject({
      method: 'POST',
      url: '/api/v1/customers',
      headers: { ...t.admin, 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json().code).toBe('VALIDATION_ERROR');

    const big = await t.app.inject({
      method: 'POST',
      url: '/api/v1/customers',
      headers: { ...t.admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(1_100_000), email: 'a@a.test' }),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().code).toBe('PAYLOAD_TOO_LARGE');

    const perPage = await t.app.inject({ url: '/api/v1/customers?per_page=101', headers: t.admin });
    expect(perPage.statusCode).toBe(400);
  });

  it('requires a valid admin token', async () => {
    const none = await t.app.inject({ url: '/api/v1/customers' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ error: 'unauthorized', code: 'UNAUTHORIZED' });
    const bad = await t.app.inject({
      url: '/api/v1/customers',
      headers: { authorization: 'Bearer nope' },
    });
    expect(bad.statusCode).toBe(401);
    const route = await t.app.inject({ url: '/api/v1/nothing-here', headers: t.admin });
    expect(route.statusCode).toBe(404);
    expect(route.json().code).toBe('NOT_FOUND');
  });

  it('follows the state machine of docs/api.md', async () => {
    const c = (await create({ name: 'S', email: 's@s.test' })).json();
    const post = (path: string, payload?: unknown) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/customers/${c.id}/${path}`,
        headers: t.admin,
        payload: payload as object,
      });

    expect((await post('reactivate')).statusCode).toBe(409);
    const suspended = await post('suspend', { reason: 'unpaid' });
    expect(suspended.json()).toMatchObject({ status: 'SUSPENDED', status_reason: 'unpaid' });
    expect(
      (await post('freeze', { versions: [{ package: 'a/b', version: '1.0.0' }] })).statusCode,
    ).toBe(409);
    const active = await post('reactivate');
    expect(active.json()).toMatchObject({ status: 'ACTIVE', status_reason: null });
    const unknownPkg = await post('freeze', { versions: [{ package: 'a/b', version: '1.0.0' }] });
    expect(unknownPkg.statusCode).toBe(400);
    expect(unknownPkg.json().details[0].field).toBe('versions.0.package');
  });

  it('expires a customer on the first read after access_expires_at', async () => {
    const past = new Date(Date.now() - 1000).toISOString();
    const c = (await create({ name: 'E', email: 'e@e.test', access_expires_at: past })).json();
    expect(c.status).toBe('EXPIRED');
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/v1/customers/${c.id}/reactivate`,
      headers: t.admin,
    });
    expect(again.statusCode).toBe(409);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/customers/${c.id}`,
      headers: t.admin,
      payload: { access_expires_at: future },
    });
    const ok = await t.app.inject({
      method: 'POST',
      url: `/api/v1/customers/${c.id}/reactivate`,
      headers: t.admin,
    });
    expect(ok.json().status).toBe('ACTIVE');
  });

  it('stores access dates in UTC and refuses ones it could not compare', async () => {
    const offset = await create({
      name: 'Offset',
      email: 'offset@e.test',
      access_expires_at: '2099-01-31T10:00:00+02:00',
    });
    expect(offset.statusCode, offset.body).toBe(201);
    expect(offset.json().access_expires_at).toBe('2099-01-31T08:00:00.000Z');
    for (const unreadable of ['2099-01-31T10:00:00+05', '2099-06-30T23:59:60Z']) {
      const res = await create({ name: 'Bad', email: 'bad@e.test', access_expires_at: unreadable });
      expect(res.statusCode, unreadable).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [{ field: 'access_expires_at' }],
      });
    }
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/customers/${offset.json().id}`,
      headers: t.admin,
      payload: { access_expires_at: '2099-01-31T10:00:00+05' },
    });
    expect(patched.statusCode).toBe(400);
  });
});
