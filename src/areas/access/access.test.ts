import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { insertPackageRow } from '../../../test/factories.js';
import { parseConstraint } from '../../composer/semver/index.js';
import type { DomainEvent } from '../../infra/events.js';
import { customerPackageAccess } from '../../composer/visibility.js';

let t: TestApp;
const events: DomainEvent[] = [];
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  t.runtime.services.deps.events.subscribe((e) => events.push(e));
  for (const name of ['acme/one', 'acme/two', 'acme/three', 'other/lib']) {
    ids[name] = await insertPackage(name);
  }
});
afterAll(async () => t.close());

const insertPackage = (name: string) => insertPackageRow(t, name);

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
function call(method: Method, url: string, payload?: object, headers: object = t.admin) {
  return t.app.inject({ method, url: `/api/v1${url}`, headers: { ...headers }, payload });
}

async function newCustomer(name = 'Customer'): Promise<string> {
  const n = Math.random().toString(36).slice(2);
  return (await call('POST', '/customers', { name, email: `${n}@c.test` })).json().id;
}

const parserMessage = (constraint: string) => {
  try {
    parseConstraint(constraint);
    return 'parsed';
  } catch (err) {
    return (err as Error).message;
  }
};

describe('direct package access', () => {
  it('grants, re-grants with a new constraint, lists and revokes', async () => {
    const id = await newCustomer();
    const first = await call('POST', `/customers/${id}/packages`, {
      package: 'acme/one',
      constraint: '^1.0',
    });
    expect(first.statusCode).toBe(201);
    const access = first.json();
    expect(access).toMatchObject({ package: 'acme/one', constraint: '^1.0', via_collection: null });
    expect(access.granted_at).toMatch(/Z$/);
    expect(events).toContainEqual(
      expect.objectContaining({ customerId: id, activity: 'ACCESS_GRANTED', package: 'acme/one' }),
    );

    const again = await call('POST', `/customers/${id}/packages`, {
      package: 'Acme/One',
      constraint: '^2.0',
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ package: 'acme/one', constraint: '^2.0' });
    expect(again.json().granted_at >= access.granted_at).toBe(true);
    const same = await call('POST', `/customers/${id}/packages`, {
      package: 'acme/one',
      constraint: '^2.0',
    });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toEqual(again.json());

    const wildcard = await call('POST', `/customers/${id}/packages`, { package: 'acme/two' });
    expect(wildcard.json().constraint).toBe('*');

    const list = await call('GET', `/customers/${id}/packages`);
    expect(list.json()).toEqual({
      data: [again.json(), wildcard.json()],
    });

    const del = await call('DELETE', `/customers/${id}/packages/acme/one`);
    expect(del.statusCode).toBe(204);
    expect(events).toContainEqual(
      expect.objectContaining({ customerId: id, activity: 'ACCESS_REVOKED', package: 'acme/one' }),
    );
    const after = (await call('GET', `/customers/${id}/packages`)).json();
    expect(after.data.map((a: { package: string }) => a.package)).toEqual(['acme/two']);
    const gone = await call('DELETE', `/customers/${id}/packages/acme/one`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe('Package access not found');
    expect((await call('DELETE', `/customers/${id}/packages/no/such`)).statusCode).toBe(404);
  });

  it('rejects unknown packages, bad names and constraints with the parser message', async () => {
    const id = await newCustomer();
    const unknown = await call('POST', `/customers/${id}/packages`, { package: 'acme/nope' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: 'validation_error' });
    expect(unknown.json().details).toEqual([
      { field: 'package', message: 'package acme/nope does not exist' },
    ]);

    const malformed = await call('POST', `/customers/${id}/packages`, { package: 'nope' });
    expect(malformed.json().details[0].field).toBe('package');

    const bad = await call('POST', `/customers/${id}/packages`, {
      package: 'acme/one',
      constraint: 'foo',
    });
    expect(bad.statusCode).toBe(400);
    expect(parserMessage('foo')).toContain('foo');
    expect(bad.json().details).toEqual([{ field: 'constraint', message: parserMessage('foo') }]);
    expect((await call('GET', `/customers/${id}/packages`)).json().data).toEqual([]);

    const extra = await call('POST', `/customers/${id}/packages`, { package: 'acme/one', x: 1 });
    expect(extra.json().details).toContainEqual({ field: 'x', message: 'unknown field' });
  });

  it('replaces the direct set atomically with PUT', async () => {
    const id = await newCustomer();
    await call('POST', `/customers/${id}/packages`, { package: 'acme/one', constraint: '^1.0' });
    await call('POST', `/customers/${id}/packages`, { package: 'acme/two', constraint: '^1.0' });
    const before = (await call('GET', `/customers/${id}/packages`)).json();

    const invalid = await call('PUT', `/customers/${id}/packages`, {
      packages: [
        { package: 'acme/three', constraint: '~1.2' },
        { package: 'acme/one', constraint: 'not a constraint' },
        { package: 'acme/missing', constraint: '*' },
      ],
    });
    expect(invalid.statusCode).toBe(400);
    const fields = invalid.json().details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['packages.1.constraint', 'packages.2.package']));
    expect(invalid.json().details).toContainEqual({
      field: 'packages.1.constraint',
      message: parserMessage('not a constraint'),
    });
    expect((await call('GET', `/customers/${id}/packages`)).json()).toEqual(before);

    const dup = await call('PUT', `/customers/${id}/packages`, {
      packages: [{ package: 'acme/three' }, { package: 'ACME/three' }],
    });
    expect(dup.json().details[0].field).toBe('packages.1.package');

    const res = await call('PUT', `/customers/${id}/packages`, {
      packages: [{ package: 'acme/two', constraint: '^1.0' }, { package: 'acme/three' }],
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(
      data.map((a: { package: string; constraint: string }) => [a.package, a.constraint]),
    ).toEqual([
      ['acme/three', '*'],
      ['acme/two', '^1.0'],
    ]);
    const keptTwo = before.data.find((a: { package: string }) => a.package === 'acme/two');
    expect(data[1].granted_at).toBe(keptTwo.granted_at);
    const changed = await call('PUT', `/customers/${id}/packages`, {
      packages: [{ package: 'acme/two', constraint: '^2.0' }],
    });
    expect(changed.json().data).toEqual([
      expect.objectContaining({ package: 'acme/two', constraint: '^2.0', via_collection: null }),
    ]);
    expect(events).toContainEqual(
      expect.objectContaining({ customerId: id, activity: 'ACCESS_REVOKED', package: 'acme/one' }),
    );

    const empty = await call('PUT', `/customers/${id}/packages`, { packages: [] });
    expect(empty.json()).toEqual({ data: [] });
  });

  it('answers 404 for an unknown customer and checks authorization', async () => {
    expect((await call('GET', '/customers/nope/packages')).statusCode).toBe(404);
    const post = await call('POST', '/customers/nope/packages', { package: 'acme/one' });
    expect(post.statusCode).toBe(404);
    expect((await call('PUT', '/customers/nope/packages', { packages: [] })).statusCode).toBe(404);

    const id = await newCustomer();
    expect((await call('GET', `/customers/${id}/packages`, undefined, {})).statusCode).toBe(401);
    const bad = { authorization: 'Bearer cma_bad' };
    expect((await call('GET', `/customers/${id}/packages`, undefined, bad)).statusCode).toBe(401);
    const viewer = (await call('POST', '/team/tokens', { name: 'v', level: 'viewer' })).json();
    const asViewer = { authorization: `Bearer ${viewer.plain_token}` };
    expect((await call('GET', `/customers/${id}/packages`, undefined, asViewer)).statusCode).toBe(
      200,
    );
    const denied = await call(
      'POST',
      `/customers/${id}/packages`,
      { package: 'acme/one' },
      asViewer,
    );
    expect(denied.statusCode).toBe(403);
    expect(denied.json().code).toBe('FORBIDDEN');
    const put = await call('PUT', `/customers/${id}/packages`, { packages: [] }, asViewer);
    expect(put.statusCode).toBe(403);
  });
});

describe('collection grants and visibility', () => {
  it('grants collections, lists the access they bring and revokes them', async () => {
    const id = await newCustomer('Collector');
    await call('POST', '/collections', {
      name: 'Bundle',
      slug: 'bundle',
      packages: ['acme/two', 'other/lib'],
    });
    await call('POST', `/customers/${id}/packages`, { package: 'acme/two', constraint: '^1.0' });
    const res = await call('POST', `/customers/${id}/collections`, { collection: 'bundle' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ collection: 'bundle', name: 'Bundle', constraint: '*' });
    const regrant = await call('POST', `/customers/${id}/collections`, {
      collection: 'bundle',
      constraint: '>=1.0',
    });
    expect(regrant.statusCode).toBe(200);
    expect(regrant.json()).toMatchObject({ collection: 'bundle', constraint: '>=1.0' });

    const list = (await call('GET', `/customers/${id}/packages`)).json().data;
    expect(list.map((a: { package: string; via_collection: string | null }) => a)).toEqual([
      expect.objectContaining({ package: 'acme/two', constraint: '^1.0', via_collection: null }),
      expect.objectContaining({
        package: 'acme/two',
        constraint: '>=1.0',
        via_collection: 'bundle',
      }),
      expect.objectContaining({ package: 'other/lib', via_collection: 'bundle' }),
    ]);
    expect((await call('GET', `/customers/${id}/collections`)).json()).toEqual({
      data: [regrant.json()],
    });

    const grants = await customerPackageAccess(t.runtime.services.deps.db, 'default', id);
    expect([...grants.values()]).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          packageId: ids['acme/two'],
          name: 'acme/two',
          constraints: expect.arrayContaining(['^1.0', '>=1.0']),
        }),
        expect.objectContaining({
          packageId: ids['other/lib'],
          name: 'other/lib',
          constraints: ['>=1.0'],
        }),
      ]),
    );
    expect(grants.size).toBe(2);
    const one = await customerPackageAccess(
      t.runtime.services.deps.db,
      'default',
      id,
      ids['other/lib'],
    );
    expect([...one.keys()]).toEqual([ids['other/lib']]);
    const other = await customerPackageAccess(t.runtime.services.deps.db, 'other-tenant', id);
    expect(other.size).toBe(0);

    const unknown = await call('POST', `/customers/${id}/collections`, { collection: 'nope' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details[0].field).toBe('collection');
    const badConstraint = await call('POST', `/customers/${id}/collections`, {
      collection: 'bundle',
      constraint: 'foo',
    });
    expect(badConstraint.json().details).toEqual([
      { field: 'constraint', message: parserMessage('foo') },
    ]);

    expect((await call('DELETE', `/customers/${id}/collections/bundle`)).statusCode).toBe(204);
    expect((await call('DELETE', `/customers/${id}/collections/bundle`)).statusCode).toBe(404);
    expect((await call('DELETE', `/customers/${id}/collections/nope`)).statusCode).toBe(404);
    const left = (await call('GET', `/customers/${id}/packages`)).json().data;
    expect(left).toEqual([expect.objectContaining({ package: 'acme/two', via_collection: null })]);
  });

  it('finds the customers of a package, directly and through collections', async () => {
    const direct = await newCustomer('Alpha');
    const viaCollection = await newCustomer('Beta');
    await call('POST', '/collections', {
      name: 'Lookup',
      slug: 'lookup',
      packages: ['acme/three'],
    });
    await call('POST', `/customers/${direct}/packages`, {
      package: 'acme/three',
      constraint: '^3',
    });
    await call('POST', `/customers/${viaCollection}/collections`, { collection: 'lookup' });

    const res = await call('GET', '/packages/acme/three/customers');
    expect(res.statusCode).toBe(200);
    const rows = res
      .json()
      .data.filter((r: { customer_id: string }) => [direct, viaCollection].includes(r.customer_id));
    expect(rows).toEqual([
      expect.objectContaining({
        customer_id: direct,
        name: 'Alpha',
        status: 'ACTIVE',
        constraint: '^3',
        via_collection: null,
      }),
      expect.objectContaining({
        customer_id: viaCollection,
        name: 'Beta',
        via_collection: 'lookup',
      }),
    ]);
    expect(rows[0].email).toMatch(/@c\.test$/);
    expect(res.json().pagination).toMatchObject({ page: 1, per_page: 25 });
    const paged = (await call('GET', '/packages/acme/three/customers?per_page=1')).json();
    expect(paged.data).toHaveLength(1);
    expect(paged.pagination.total).toBe(res.json().pagination.total);
    expect((await call('GET', '/packages/acme/nope/customers')).statusCode).toBe(404);
  });
});
