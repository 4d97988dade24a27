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

const auditCount = async (customerId: string) =>
  (
    await t.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('target_type', '=', 'customer')
      .where('target_id', '=', customerId)
      .executeTakeFirstOrThrow()
  ).n;

const page = (total: number, perPage = 25, pageNo = 1) => ({
  page: pageNo,
  per_page: perPage,
  total,
  total_pages: Math.ceil(total / perPage),
});

describe('direct package access', () => {
  it('grants, refuses a duplicate with 409, lists and revokes', async () => {
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

    // A second POST of the same package is a duplicate, whatever the constraint: 409, no change.
    const audited = Number(await auditCount(id));
    const granted = () =>
      events.filter((e) => 'activity' in e && e.activity === 'ACCESS_GRANTED').length;
    const grantedBefore = granted();
    for (const body of [
      { package: 'Acme/One', constraint: '^2.0' },
      { package: 'acme/one', constraint: '^1.0' },
      { package: 'acme/one' },
    ]) {
      const dup = await call('POST', `/customers/${id}/packages`, body);
      expect(dup.statusCode, JSON.stringify(body)).toBe(409);
      expect(dup.json()).toMatchObject({ error: 'conflict', code: 'CONFLICT' });
      expect(dup.json().message).toContain('acme/one is already granted');
      expect(dup.json().message).toContain('constraint ^1.0');
      expect(dup.json().message).toContain(`PUT /api/v1/customers/${id}/packages`);
      expect(dup.json().message).toContain('DELETE');
    }
    expect(Number(await auditCount(id))).toBe(audited);
    expect(granted()).toBe(grantedBefore);
    const unchanged = (await call('GET', `/customers/${id}/packages`)).json();
    expect(unchanged.data).toEqual([access]);

    // PUT is the way to change the constraint.
    const changed = await call('PUT', `/customers/${id}/packages`, {
      packages: [{ package: 'acme/one', constraint: '^2.0' }],
    });
    expect(changed.statusCode).toBe(200);
    const again = changed.json().data[0];
    expect(again).toMatchObject({ package: 'acme/one', constraint: '^2.0' });
    expect(again.granted_at >= access.granted_at).toBe(true);

    const wildcard = await call('POST', `/customers/${id}/packages`, { package: 'acme/two' });
    expect(wildcard.statusCode).toBe(201);
    expect(wildcard.json().constraint).toBe('*');

    const list = await call('GET', `/customers/${id}/packages`);
    expect(list.json()).toEqual({ data: [again, wildcard.json()], pagination: page(2) });

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
    expect(empty.json()).toEqual({ data: [], pagination: page(0) });
  });

  it('paginates the access list and answers PUT with its first page', async () => {
    const id = await newCustomer('Paged');
    const names = Array.from({ length: 27 }, (_, i) => `paged/p${String(i).padStart(2, '0')}`);
    for (const name of names) await insertPackage(name);
    const put = await call('PUT', `/customers/${id}/packages`, {
      packages: names.map((name) => ({ package: name, constraint: '^1.0' })),
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().pagination).toEqual(page(27));
    expect(put.json().data.map((a: { package: string }) => a.package)).toEqual(names.slice(0, 25));

    const first = (await call('GET', `/customers/${id}/packages`)).json();
    expect(first).toEqual(put.json());
    const second = (await call('GET', `/customers/${id}/packages?page=2`)).json();
    expect(second.pagination).toEqual(page(27, 25, 2));
    expect(second.data.map((a: { package: string }) => a.package)).toEqual(names.slice(25));
    expect(second.data[0]).toEqual({
      package: names[25],
      constraint: '^1.0',
      granted_at: expect.stringMatching(/Z$/),
      via_collection: null,
    });
    const small = (await call('GET', `/customers/${id}/packages?per_page=10&page=3`)).json();
    expect(small.pagination).toEqual(page(27, 10, 3));
    expect(small.data.map((a: { package: string }) => a.package)).toEqual(names.slice(20, 27));
    const past = (await call('GET', `/customers/${id}/packages?page=9`)).json();
    expect(past).toEqual({ data: [], pagination: page(27, 25, 9) });
    const full = (await call('GET', `/customers/${id}/packages?per_page=100`)).json();
    expect(full.data).toHaveLength(27);

    for (const query of ['per_page=101', 'per_page=0', 'page=0', 'page=x', 'size=5']) {
      const bad = await call('GET', `/customers/${id}/packages?${query}`);
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json().code, query).toBe('VALIDATION_ERROR');
    }
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
    const direct = await call('POST', `/customers/${id}/packages`, {
      package: 'acme/two',
      constraint: '^1.0',
    });
    expect(direct.statusCode).toBe(201);
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
      pagination: { page: 1, per_page: 25, total: 1, total_pages: 1 },
    });
    expect((await call('GET', `/customers/${id}/collections?page=2`)).json().data).toEqual([]);

    const grants = await customerPackageAccess(t.db, 'default', id);
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
    const one = await customerPackageAccess(t.db, 'default', id, ids['other/lib']);
    expect([...one.keys()]).toEqual([ids['other/lib']]);
    const other = await customerPackageAccess(t.db, 'other-tenant', id);
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

  it('adds a direct grant for a package the customer reaches only through a collection', async () => {
    const id = await newCustomer('Via');
    await call('POST', '/collections', { name: 'Only', slug: 'only', packages: ['acme/three'] });
    await call('POST', `/customers/${id}/collections`, { collection: 'only', constraint: '^1.0' });
    const res = await call('POST', `/customers/${id}/packages`, {
      package: 'acme/three',
      constraint: '^3.0',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      package: 'acme/three',
      constraint: '^3.0',
      via_collection: null,
    });
    const list = (await call('GET', `/customers/${id}/packages`)).json();
    expect(list.pagination).toEqual(page(2));
    expect(list.data).toEqual([
      expect.objectContaining({ package: 'acme/three', constraint: '^3.0', via_collection: null }),
      expect.objectContaining({
        package: 'acme/three',
        constraint: '^1.0',
        via_collection: 'only',
      }),
    ]);
    const dup = await call('POST', `/customers/${id}/packages`, { package: 'acme/three' });
    expect(dup.statusCode).toBe(409);
  });

  it('refuses a concurrent duplicate POST with 409 and keeps one grant', async () => {
    const id = await newCustomer('Race');
    const answers = await Promise.all(
      ['^1.0', '^2.0', '^3.0'].map((constraint) =>
        call('POST', `/customers/${id}/packages`, { package: 'acme/one', constraint }),
      ),
    );
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 409, 409]);
    const winner = answers.find((r) => r.statusCode === 201)!.json();
    const list = (await call('GET', `/customers/${id}/packages`)).json();
    expect(list.data).toEqual([winner]);
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
