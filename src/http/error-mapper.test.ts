import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/helpers.js';
import type { TestApp } from '../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ WORKER: 'off' });
});
afterAll(async () => t.close());

describe('errors raised before a route runs', () => {
  it('answers malformed JSON with VALIDATION_ERROR and details naming the body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/customers',
      headers: { ...t.admin, 'content-type': 'application/json' },
      payload: '{bad',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'validation_error',
      code: 'VALIDATION_ERROR',
      message: 'Request body is not valid JSON',
      details: [{ field: 'body', message: 'Request body is not valid JSON' }],
    });
  });

  it('answers an unknown route with NOT_FOUND and no details', async () => {
    const res = await t.app.inject({ url: '/api/v1/nothing-here', headers: t.admin });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'not_found', code: 'NOT_FOUND' });
    expect(res.json()).not.toHaveProperty('details');
  });
});
