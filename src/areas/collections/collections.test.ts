import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { insertPackageRow } from '../../../test/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  for (const name of ['acme/one', 'acme/two', 'acme/three', 'other/lib']) await insertPackage(name);
});
afterAll(async () => t.close());

const insertPackage = (name: string) => insertPackageRow(t, name);

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
function call(method: Method, url: string, payload?: object, headers: object = t.admin) {
  return t.app.inject({ method, url: `/api/v1${url}`, headers: { ...headers }, payload });
}

async function accessOf(customerId: string) {
  const res = await call('GET', `/customers/${customerId}/packages`);
  return res
    .json()
    .data.map((a: { package: string; via_collection: string | null }) => [
      a.package,
      a.via_collection,
    ]);
}

describe('collections', () => {
  it('creates, reads, lists, updates and deletes', async () => {
    const res = await call('POST', '/collections', {
      name: 'Core',
      slug: 'core',
      packages: ['acme/two', 'Acme/One', 'acme/two'],
    });
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({
      slug: 'core',
      name: 'Core',
      packages: ['acme/one', 'acme/two'],
    });
    expect(created.created_at).toMatch(/Z$/);
    expect(created.updated_at).toBe(created.created_at);

    expect((await call('GET', '/collections/core')).json()).toEqual(created);
    const list = (await call('GET', '/collections')).json();
    expect(list.data).toContainEqual(created);
    expect(list.pagination).toMatchObject({ page: 1, per_page: 25 });

    const renamed = await call('PATCH', '/collections/core', { name: 'Core packages' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({
      name: 'Core packages',
      packages: ['acme/one', 'acme/two'],
    });

    const replaced = await call('PATCH', '/collections/core', { packages: ['other/lib'] });
    expect(replaced.json().packages).toEqual(['other/lib']);

    const edited = await call('PATCH', '/collections/core', {
      add_packages: ['acme/three', 'acme/one'],
      remove_packages: ['other/lib'],
    });
    expect(edited.json().packages).toEqual(['acme/one', 'acme/three']);

    const del = await call('DELETE', '/collections/core');
    expect(del.statusCode).toBe(204);
    expect((await call('GET', '/collections/core')).statusCode).toBe(404);
    expect((await call('DELETE', '/collections/core')).statusCode).toBe(404);
    expect((await call('PATCH', '/collections/core', { name: 'x' })).statusCode).toBe(404);
  });

  it('rejects duplicates, bad slugs, unknown packages and empty updates', async () => {
    await call('POST', '/collections', { name: 'Dup', slug: 'dup', packages: [] });
    const dup = await call('POST', '/collections', { name: 'Dup 2', slug: 'dup' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ code: 'CONFLICT', error: 'conflict' });

    for (const slug of ['Bad', 'has space', '', 'x'.repeat(101)]) {
      const res = await call('POST', '/collections', { name: 'B', slug });
      expect(res.statusCode, slug).toBe(400);
      expect(res.json().details[0].field).toBe('slug');
    }

    const unknown = await call('POST', '/collections', {
      name: 'U',
      slug: 'unknown',
      packages: ['acme/one', 'acme/nope'],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details).toEqual([
      { field: 'packages.1', message: 'package acme/nope does not exist' },
    ]);
    expect((await call('GET', '/collections/unknown')).statusCode).toBe(404);

    const badPatch = await call('PATCH', '/collections/dup', {
      add_packages: ['acme/one'],
      remove_packages: ['no/such'],
    });
    expect(badPatch.json().details).toEqual([
      { field: 'remove_packages.0', message: 'package no/such does not exist' },
    ]);
    expect((await call('GET', '/collections/dup')).json().packages).toEqual([]);
    expect((await call('PATCH', '/collections/dup', {})).statusCode).toBe(400);
    const extra = await call('PATCH', '/collections/dup', { title: 'x' });
    expect(extra.json().details).toContainEqual({ field: 'title', message: 'unknown field' });
  });

  it('keeps customers granted a collection in step with its packages', async () => {
    const customer = (await call('POST', '/customers', { name: 'G', email: 'g@g.test' })).json();
    await call('POST', '/collections', { name: 'Step', slug: 'step', packages: ['acme/one'] });
    const grant = await call('POST', `/customers/${customer.id}/collections`, {
      collection: 'step',
      constraint: '^1.0',
    });
    expect(grant.statusCode).toBe(201);
    expect(await accessOf(customer.id)).toEqual([['acme/one', 'step']]);

    await call('PATCH', '/collections/step', { add_packages: ['other/lib'] });
    expect(await accessOf(customer.id)).toEqual([
      ['acme/one', 'step'],
      ['other/lib', 'step'],
    ]);
    const lib = (await call('GET', `/customers/${customer.id}/packages`)).json().data[1];
    expect(lib.constraint).toBe('^1.0');

    await call('PATCH', '/collections/step', { remove_packages: ['acme/one'] });
    expect(await accessOf(customer.id)).toEqual([['other/lib', 'step']]);

    expect((await call('DELETE', '/collections/step')).statusCode).toBe(204);
    expect(await accessOf(customer.id)).toEqual([]);
    const grants = await call('GET', `/customers/${customer.id}/collections`);
    expect(grants.json().data).toEqual([]);
  });

  it('requires an admin token; viewers may read but not write', async () => {
    expect((await call('GET', '/collections', undefined, {})).statusCode).toBe(401);
    const bad = { authorization: 'Bearer nope' };
    expect((await call('GET', '/collections', undefined, bad)).statusCode).toBe(401);
    const viewer = (await call('POST', '/team/tokens', { name: 'v', level: 'viewer' })).json();
    const asViewer = { authorization: `Bearer ${viewer.plain_token}` };
    expect((await call('GET', '/collections', undefined, asViewer)).statusCode).toBe(200);
    const post = await call('POST', '/collections', { name: 'V', slug: 'v' }, asViewer);
    expect(post.statusCode).toBe(403);
    expect(post.json().code).toBe('FORBIDDEN');
  });
});
