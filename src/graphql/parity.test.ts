import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, graphqlBody } from '../../test/helpers.js';
import type { GqlAnswer, TestApp } from '../../test/helpers.js';
import { adminApi, insertPackageRow } from '../../test/factories.js';

let t: TestApp;
let api: ReturnType<typeof adminApi>;

const gql = (query: string, headers: Record<string, string> = t.admin) =>
  graphqlBody(t, query, {}, headers);

async function rest(method: string, url: string, payload?: object, headers = t.admin) {
  const res = await t.app.inject({
    method: method as 'GET',
    url: `/api/v1${url}`,
    headers,
    payload,
  });
  return { status: res.statusCode, body: res.statusCode === 204 ? null : res.json() };
}

const gqlCode = (a: GqlAnswer) => a.errors?.[0]?.extensions.code ?? null;

beforeAll(async () => {
  t = await createTestApp({ WORKER: 'off' });
  api = adminApi(t);
  await insertPackageRow(t, 'acme/one');
  await insertPackageRow(t, 'acme/two');
});
afterAll(async () => t.close());

describe('REST and GraphQL parity', () => {
  it('leaves the same state after the same operations', async () => {
    const viaRest = (await rest('POST', '/customers', { name: 'P', email: 'p@rest.test' })).body;
    await rest('POST', `/customers/${viaRest.id}/packages`, {
      package: 'acme/one',
      constraint: '^1.0',
    });
    await rest('POST', `/customers/${viaRest.id}/suspend`, { reason: 'r' });

    const made = await gql(
      `mutation { createCustomer(input: { name: "P", email: "p@gql.test" }) { id } }`,
    );
    const id = (made.data!.createCustomer as { id: string }).id;
    await gql(
      `mutation { grantPackageAccess(customerId: "${id}", packages: [{ package: "acme/one", constraint: "^1.0" }]) { id } }`,
    );
    await gql(`mutation { suspendCustomer(id: "${id}", reason: "r") { id } }`);

    const strip = (c: Record<string, unknown>) => {
      const { id: _id, email: _email, created_at: _c, updated_at: _u, ...rest } = c;
      return rest;
    };
    const a = (await rest('GET', `/customers/${viaRest.id}`)).body;
    const b = (await rest('GET', `/customers/${id}`)).body;
    expect(strip(b)).toEqual(strip(a));
    const accessA = (await rest('GET', `/customers/${viaRest.id}/packages`)).body.data;
    const accessB = (await rest('GET', `/customers/${id}/packages`)).body.data;
    const noTime = (rows: { granted_at: string }[]) =>
      rows.map(({ granted_at: _g, ...row }) => row);
    expect(noTime(accessB)).toEqual(noTime(accessA));

    // And GraphQL reads what REST wrote.
    const read = await gql(
      `{ customer(id: "${viaRest.id}") { name status statusReason packages { name constraint } } }`,
    );
    expect(read.data!.customer).toEqual({
      name: 'P',
      status: 'SUSPENDED',
      statusReason: 'r',
      packages: [{ name: 'acme/one', constraint: '^1.0' }],
    });
  });

  it('gives the same error codes', async () => {
    const c = await api('POST', '/api/v1/customers', { name: 'Errs', email: 'e@x.test' });
    const made = await api('POST', '/api/v1/team/tokens', { name: 'v', level: 'viewer' });
    const viewer = { authorization: `Bearer ${made.plain_token}` };
    const cases: [
      string,
      () => Promise<{ body: { code: string } }>,
      () => Promise<GqlAnswer>,
      string,
    ][] = [
      [
        'suspend twice',
        async () => {
          await rest('POST', `/customers/${c.id}/suspend`, {});
          return rest('POST', `/customers/${c.id}/suspend`, {});
        },
        () => gql(`mutation { suspendCustomer(id: "${c.id}") { id } }`),
        'CONFLICT',
      ],
      [
        'unknown customer',
        () => rest('GET', '/customers/nope'),
        () => gql(`{ customer(id: "nope") { id } }`),
        'NOT_FOUND',
      ],
      [
        'unknown customer (mutation)',
        () => rest('POST', '/customers/nope/reactivate', {}),
        () => gql(`mutation { reactivateCustomer(id: "nope") { id } }`),
        'NOT_FOUND',
      ],
      [
        'bad email',
        () => rest('POST', '/customers', { name: 'B', email: 'not-an-email' }),
        () =>
          gql(`mutation { createCustomer(input: { name: "B", email: "not-an-email" }) { id } }`),
        'VALIDATION_ERROR',
      ],
      [
        'bad constraint',
        () =>
          rest('POST', `/customers/${c.id}/packages`, { package: 'acme/two', constraint: '^^' }),
        () =>
          gql(
            `mutation { grantPackageAccess(customerId: "${c.id}", packages: [{ package: "acme/two", constraint: "^^" }]) { id } }`,
          ),
        'VALIDATION_ERROR',
      ],
      [
        'duplicate collection',
        async () => {
          await rest('POST', '/collections', { name: 'D', slug: 'dup' });
          return rest('POST', '/collections', { name: 'D', slug: 'dup' });
        },
        () => gql(`mutation { createCollection(input: { name: "D", slug: "dup" }) { slug } }`),
        'CONFLICT',
      ],
      [
        'viewer mutation',
        () => rest('POST', '/customers', { name: 'V', email: 'v@x.test' }, viewer),
        () =>
          gql(
            `mutation { createCustomer(input: { name: "V", email: "v@x.test" }) { id } }`,
            viewer,
          ),
        'FORBIDDEN',
      ],
      [
        'bad token',
        () => rest('GET', '/customers', undefined, { authorization: 'Bearer wrong' }),
        () => gql('{ customers { totalCount } }', { authorization: 'Bearer wrong' }),
        'UNAUTHORIZED',
      ],
    ];
    for (const [label, viaRest, viaGql, code] of cases) {
      const r = await viaRest();
      expect(r.body.code, `REST ${label}`).toBe(code);
      expect(gqlCode(await viaGql()), `GraphQL ${label}`).toBe(code);
    }
    // Validation details name the same field.
    const r = await rest('POST', '/customers', { name: 'B', email: 'bad' });
    const g = await gql(`mutation { createCustomer(input: { name: "B", email: "bad" }) { id } }`);
    expect(g.errors![0]!.extensions.details).toEqual(r.body.details);
  });
});

describe('batch loading', () => {
  /**
   * Counts the SQL statements the services run, by wrapping the executors' shared class (a
   * tenant-bound handle, infra/db/tenant-scope.ts, has an executor of its own).
   */
  function countQueries(): { count: () => number; stop: () => void } {
    const executor = t.db.getExecutor();
    const spy = vi.spyOn(Object.getPrototypeOf(executor) as typeof executor, 'executeQuery');
    return {
      count: () => spy.mock.calls.length,
      stop: () => spy.mockRestore(),
    };
  }

  async function queriesFor(first: number) {
    // The cache generation's once-a-second poll shares the executor, and so does the batch of
    // tokens' last uses a read writes first: keep both out of the count.
    const { generations } = t.runtime.services.deps;
    generations.stop();
    await t.runtime.services.auth.uses.flush();
    const counter = countQueries();
    try {
      const answer = await gql(
        `{ customers(first: ${first}, filter: { status: ACTIVE }) { edges { node { id packages { name } } } } }`,
      );
      expect(answer.errors).toBeUndefined();
      const edges = (answer.data!.customers as { edges: { node: { packages: unknown[] } }[] })
        .edges;
      expect(edges).toHaveLength(first);
      expect(edges.every((e) => e.node.packages.length === 2)).toBe(true);
      return counter.count();
    } finally {
      counter.stop();
      generations.start();
    }
  }

  it('runs the same number of SQL queries for 3 customers as for 100', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) {
      const row = await t.runtime.services.customers.create(
        { tenantId: 'default', actor: { kind: 'system', id: null } },
        { name: `Batch ${i}`, email: `b${i}@batch.test` },
      );
      ids.push(row.id);
    }
    for (const id of ids) {
      await api('POST', `/api/v1/customers/${id}/packages`, { package: 'acme/one' });
      await api('POST', `/api/v1/customers/${id}/packages`, { package: 'acme/two' });
    }
    const small = await queriesFor(3);
    const large = await queriesFor(100);
    expect(large).toBe(small);
    expect(small).toBeGreaterThanOrEqual(3);
    expect(small).toBeLessThanOrEqual(5);
  }, 60_000);
});
