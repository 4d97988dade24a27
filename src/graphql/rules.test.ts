import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudTenant, createTestApp, graphql } from '../../test/helpers.js';
import type { GqlAnswer, TestApp } from '../../test/helpers.js';
import { loadConfig } from '../config/index.js';
import { buildSchema, parse } from './graphql-js.js';
import { typeDefs } from './schema.js';
import { operationCost } from './complexity.js';

const gql = (t: TestApp, query: string, headers: Record<string, string> = t.admin) =>
  graphql(t, query, {}, headers);

const codes = (a: GqlAnswer) => (a.errors ?? []).map((e) => e.extensions.code);

/** A query costing exactly `cost` (100 per `customers(first: 99) { totalCount }`, see below). */
function queryOfCost(cost: number): string {
  const parts: string[] = [];
  let left = cost;
  let i = 0;
  while (left > 0) {
    // customers(first: n) { totalCount } costs 1 + n; n between 1 and 100.
    const n = Math.min(100, left - 1);
    if (n < 1) throw new Error(`cannot build a query of cost ${cost}`);
    parts.push(`c${i++}: customers(first: ${n}) { totalCount }`);
    left -= n + 1;
  }
  return `{ ${parts.join(' ')} }`;
}

describe('complexity', () => {
  const schema = buildSchema(typeDefs);
  const cost = (q: string, variables?: Record<string, unknown>) =>
    operationCost(schema, parse(q), undefined, variables);

  it('costs 1 per field and multiplies lists and connections by first (default 25)', () => {
    expect(cost('{ stats { totalDownloads packages } }')).toBe(3);
    expect(cost('{ customers { totalCount } }')).toBe(1 + 25);
    expect(cost('{ customers(first: 10) { edges { node { id name } } } }')).toBe(1 + 10 * 4);
    expect(cost('{ customers(pagination: { first: 4 }) { totalCount } }')).toBe(5);
    expect(cost('query($n: Int) { customers(first: $n) { totalCount } }', { n: 7 })).toBe(8);
    // A list of objects outside a connection: 25 per level.
    expect(cost('{ collections { slug packages { name } } }')).toBe(1 + 25 * (1 + 1 + 25));
    // Fragments count where they are spread; introspection is free.
    expect(
      cost(
        'query { customers(first: 2) { ...F } __typename } fragment F on CustomerConnection { totalCount }',
      ),
    ).toBe(3);
    expect(queryOfCost(500)).toContain('customers');
    expect(cost(queryOfCost(500))).toBe(500);
    expect(cost(queryOfCost(501))).toBe(501);
    expect(cost(queryOfCost(1000))).toBe(1000);
    expect(cost(queryOfCost(1001))).toBe(1001);
  });

  for (const [edition, limit] of [
    ['pro', 500],
    ['cloud', 1000],
  ] as const) {
    describe(`on ${edition}`, () => {
      let t: TestApp;
      beforeAll(async () => {
        t = await createTestApp({ EDITION: edition, WORKER: 'off' });
        // In Cloud, the registry is a tenant's: on its host, with its own owner token; its plan
        // (business: 1,000) sets the limit.
        if (edition === 'cloud') {
          const tenant = await cloudTenant(t, 'acme');
          await t.db
            .updateTable('tenants')
            .set({ plan: 'business' })
            .where('id', '=', tenant.id)
            .execute();
          t.admin = tenant.admin;
        }
      });
      afterAll(async () => t.close());

      it(`runs a query of cost ${limit} and refuses ${limit + 1} before execution`, async () => {
        const ok = await gql(t, queryOfCost(limit));
        expect(ok.errors).toBeUndefined();
        expect(ok.data).toMatchObject({ c0: { totalCount: 0 } });
        const over = await gql(t, queryOfCost(limit + 1));
        expect(codes(over)).toEqual(['QUERY_TOO_COMPLEX']);
        expect(over.data).toBeNull();
        // Refused before execution: a too complex mutation changes nothing.
        const mutation = `mutation { createCustomer(input: { name: "X", email: "x@x.test" }) { id } ${Array.from(
          { length: 14 },
          (_, i) =>
            `m${i}: createCustomer(input: { name: "Y${i}", email: "y${i}@x.test" }) { packages { name constraint grantedAt } }`,
        ).join(' ')} }`;
        const refused = await gql(t, mutation);
        expect(codes(refused)).toEqual(['QUERY_TOO_COMPLEX']);
        const count = await gql(t, '{ customers { totalCount } }');
        expect(count.data).toEqual({ customers: { totalCount: 0 } });
      });
    });
  }

  describe("in Cloud, the tenant's plan", () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ EDITION: 'cloud', WORKER: 'off' });
    });
    afterAll(async () => t.close());

    it('sets the limit: 500 on starter, none on enterprise', async () => {
      const starter = await cloudTenant(t, 'small');
      const big = await cloudTenant(t, 'big');
      await t.db
        .updateTable('tenants')
        .set({ plan: 'enterprise' })
        .where('id', '=', big.id)
        .execute();
      expect((await gql(t, queryOfCost(500), starter.admin)).errors).toBeUndefined();
      const over = await gql(t, queryOfCost(501), starter.admin);
      expect(codes(over)).toEqual(['QUERY_TOO_COMPLEX']);
      expect(over.errors?.[0]?.message).toMatch(/limit of 500 of your plan/);
      expect((await gql(t, queryOfCost(5000), big.admin)).errors).toBeUndefined();
    });
  });

  describe('on enterprise', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ EDITION: 'enterprise', WORKER: 'off' });
    });
    afterAll(async () => t.close());

    it('has no limit', async () => {
      const big = await gql(t, queryOfCost(5000));
      expect(big.errors).toBeUndefined();
    });

    it('hides introspection and the playground by default', async () => {
      const intro = await gql(t, '{ __schema { queryType { name } } }');
      expect(new Set(codes(intro))).toEqual(new Set(['VALIDATION_ERROR']));
      expect(intro.data ?? null).toBeNull();
      expect(intro.errors![0]!.message).toMatch(/introspection/i);
      const typename = await gql(t, '{ __typename }');
      expect(typename.data).toEqual({ __typename: 'Query' });
      expect((await t.app.inject({ url: '/graphql/playground' })).statusCode).toBe(404);
      expect((await t.app.inject({ url: '/graphiql' })).statusCode).toBe(404);
    });
  });
});

describe('editions and settings', () => {
  it('answers FEATURE_NOT_AVAILABLE on community, for any operation and even without a token', async () => {
    const t = await createTestApp({ EDITION: 'community', WORKER: 'off' });
    try {
      for (const query of [
        '{ customers { totalCount } }',
        'mutation { deleteCustomer(id: "x") }',
        '{ not valid',
      ]) {
        const answer = await gql(t, query);
        expect(codes(answer), query).toEqual(['FEATURE_NOT_AVAILABLE']);
      }
      expect(codes(await gql(t, '{ stats { packages } }', {}))).toEqual(['FEATURE_NOT_AVAILABLE']);
    } finally {
      await t.close();
    }
  });

  it('serves the playground and introspection when enabled', async () => {
    const t = await createTestApp({
      GRAPHQL_PLAYGROUND: 'true',
      GRAPHQL_INTROSPECTION: 'true',
      WORKER: 'off',
    });
    try {
      const playground = await t.app.inject({ url: '/graphql/playground' });
      expect(playground.statusCode).toBe(302);
      expect(playground.headers.location).toBe('/graphiql');
      const page = await t.app.inject({ url: '/graphiql' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/html/);
      const intro = await gql(t, '{ __schema { queryType { name } } }');
      expect(intro.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
      // Introspection still needs a token.
      expect(codes(await gql(t, '{ __schema { queryType { name } } }', {}))).toEqual([
        'UNAUTHORIZED',
      ]);
    } finally {
      await t.close();
    }
  });

  it('reads GRAPHQL_PLAYGROUND and GRAPHQL_INTROSPECTION as validated flags', () => {
    expect(loadConfig({})).toMatchObject({ graphqlPlayground: false, graphqlIntrospection: false });
    expect(loadConfig({ NODE_ENV: 'development' }).graphqlIntrospection).toBe(true);
    expect(
      loadConfig({ NODE_ENV: 'development', GRAPHQL_INTROSPECTION: 'off' }).graphqlIntrospection,
    ).toBe(false);
    expect(loadConfig({ GRAPHQL_PLAYGROUND: 'on' }).graphqlPlayground).toBe(true);
    expect(() => loadConfig({ GRAPHQL_PLAYGROUND: 'maybe' })).toThrow(/GRAPHQL_PLAYGROUND/);
    expect(() => loadConfig({ GRAPHQL_INTROSPECTION: 'x' })).toThrow(/GRAPHQL_INTROSPECTION/);
  });
});
