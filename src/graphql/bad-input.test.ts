import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/helpers.js';
import type { TestApp } from '../../test/helpers.js';

/** Input of the wrong shape is the client's error (VALIDATION_ERROR), never INTERNAL_ERROR. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const codes = (body: { errors?: { extensions?: { code?: string } }[]; code?: string }) =>
  body.errors ? body.errors.map((e) => e.extensions?.code) : [body.code];

describe('GraphQL bad input', () => {
  it('answers VALIDATION_ERROR for a variable of the wrong shape', async () => {
    const query = 'query ($id: ID!) { customer(id: $id) { id } }';
    for (const id of [{ a: 1 }, [1, 2], null, true, 1.5]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: t.admin,
        payload: { query, variables: { id } },
      });
      expect(codes(res.json()), JSON.stringify(id)).toEqual(['VALIDATION_ERROR']);
    }
  });

  it('answers VALIDATION_ERROR for a GET whose query is not a document', async () => {
    for (const query of ['-1', '1', '{', 'null', '']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/graphql?query=${encodeURIComponent(query)}`,
        headers: t.admin,
      });
      expect(codes(res.json()), query).toEqual(['VALIDATION_ERROR']);
    }
    const vars = await t.app.inject({
      method: 'GET',
      url: `/graphql?query=${encodeURIComponent('{ packages { total } }')}&variables=%5B1%5D`,
      headers: t.admin,
    });
    expect(codes(vars.json())).toEqual(['VALIDATION_ERROR']);
  });
});
