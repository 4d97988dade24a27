import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, createTestApp, graphql } from '../../test/helpers.js';
import type { TestApp } from '../../test/helpers.js';
import { addSyncedPackage, createCustomer } from '../../test/factories.js';
import { GitFixture } from '../../test/fixtures/git-repo.js';
import { packageZip } from '../areas/artifacts/test-zips.js';

let t: TestApp;
let customerToken: string;
let git: GitFixture;

const errorShape = {
  error: expect.stringMatching(/^[a-z_]+$/),
  code: expect.stringMatching(/^[A-Z_]+$/),
  message: expect.any(String),
};

beforeAll(async () => {
  t = await createTestApp();
  git = new GitFixture('acme/lib').release('1.0.0');
  await addSyncedPackage(t, 'acme/lib', git.url);
  const customer = await createCustomer(t, 'Buyer');
  const admin = { ...t.admin };
  await t.app.inject({
    method: 'POST',
    url: `/api/v1/customers/${customer.id}/packages`,
    headers: admin,
    payload: { package: 'acme/lib' },
  });
  const token = await t.app.inject({
    method: 'POST',
    url: `/api/v1/customers/${customer.id}/tokens`,
    headers: admin,
    payload: { name: 'ci', scope: 'download' },
  });
  customerToken = token.json().plain_token;
});
afterAll(async () => {
  await t.close();
  git.remove?.();
});

const get = (url: string, headers: Record<string, string> = t.admin) =>
  t.app.inject({ url, headers });
const post = (url: string, payload: unknown, headers: Record<string, string> = t.admin) =>
  t.app.inject({ method: 'POST', url, headers, payload: payload as object });

describe('paging', () => {
  it.each(['customers', 'packages', 'tasks', 'audit'])(
    'answers 400 VALIDATION_ERROR to a page number no list has on /%s',
    async (list) => {
      for (const page of ['1e20', '99999999999', '0', '-1', 'x']) {
        const res = await get(`/api/v1/${list}?page=${page}`);
        expect(res.statusCode, `${list} page=${page}: ${res.body}`).toBe(400);
        expect(res.json()).toMatchObject({
          code: 'VALIDATION_ERROR',
          details: [{ field: 'page' }],
        });
      }
    },
  );

  it('answers VALIDATION_ERROR to a GraphQL cursor beyond any list', async () => {
    const after = Buffer.from(`offset:${'9'.repeat(25)}`).toString('base64url');
    const res = await graphql(
      t,
      'query($a: String) { customers(first: 5, after: $a) { totalCount } }',
      { a: after },
    );
    expect(res.errors?.[0]?.extensions.code).toBe('VALIDATION_ERROR');
  });
});

describe('errors raised by the HTTP layer itself', () => {
  let base: string;
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });

  const raw = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const req = http.request(`${base}${path}`, { headers: { ...t.admin, ...headers } }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.end();
    });

  it('answers a bad percent-escape with 400 VALIDATION_ERROR', async () => {
    for (const path of ['/api/v1/customers/%ff', '/p2/acme/%ff.json']) {
      const res = await raw(path);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        ...errorShape,
        code: 'VALIDATION_ERROR',
        error: 'validation_error',
        details: [{ field: 'url', message: expect.any(String) }],
      });
    }
  });

  it('answers an over-long path parameter with 414 URI_TOO_LONG', async () => {
    const res = await raw(`/api/v1/customers/${'a'.repeat(1000)}`);
    expect(res.status).toBe(414);
    expect(res.body).toEqual({ ...errorShape, code: 'URI_TOO_LONG', error: 'uri_too_long' });
  });

  it('answers oversized headers with 431 HEADERS_TOO_LARGE', async () => {
    const res = await raw('/api/v1/customers', { 'x-padding': 'a'.repeat(20_000) });
    expect(res.status).toBe(431);
    expect(res.body).toEqual({
      ...errorShape,
      code: 'HEADERS_TOO_LARGE',
      error: 'headers_too_large',
    });
  });
});

describe('bodies are validated, not coerced', () => {
  const customers = async () => (await get('/api/v1/customers')).json().pagination.total as number;

  it.each([
    ['an array', ['Acme']],
    ['a boolean', true],
    ['a number', 42],
    ['NUL inside', 'Ac\u0000me'],
    ['another control character', 'Ac\u0007me'],
    ['a lone surrogate', 'Ac\ud800me'],
    ['only whitespace', '   '],
  ])('refuses a customer name that is %s and creates nothing', async (_label, name) => {
    const before = await customers();
    const res = await post('/api/v1/customers', { name, email: 'x@example.test' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'name' }] });
    expect(await customers()).toBe(before);
  });

  it('refuses an email with a control character', async () => {
    const res = await post('/api/v1/customers', { name: 'Acme', email: 'a\u0000@example.test' });
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'email' }] });
  });

  it('refuses unknown fields on a route that takes no body, and changes nothing', async () => {
    const res = await post('/api/v1/packages/acme/lib/deprecate/1.0.0', { replacment: 'acme/new' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'replacment' }],
    });
    const pkg = (await get('/api/v1/packages/acme/lib')).json();
    expect(pkg.versions[0].deprecated).toBe(false);
  });

  it('refuses an artifact version with a NUL, so it never reaches lock files', async () => {
    await post('/api/v1/packages', { name: 'acme/art', type: 'artifact' });
    const zip = packageZip({ name: 'acme/art' });
    for (const query of ['?version=9.9.9%00', '?version=9.9.9%0A']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/packages/acme/art/artifacts${query}`,
        headers: { ...t.admin, 'content-type': 'application/zip' },
        payload: zip,
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
    const inZip = packageZip({ name: 'acme/art', version: '9.9.9\u0000' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/packages/acme/art/artifacts',
      headers: { ...t.admin, 'content-type': 'application/zip' },
      payload: inZip,
    });
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'version' }] });
    const pkg = (await get('/api/v1/packages/acme/art')).json();
    expect(pkg.versions).toEqual([]);
  });

  it('takes an empty POST without a content type as {} (what curl -X POST sends)', async () => {
    const customer = await createCustomer(t, 'Empty');
    for (const headers of [{}, { 'transfer-encoding': 'chunked' }]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/customers/${customer.id}/suspend`,
        headers: { ...t.admin, ...headers },
      });
      expect(res.statusCode, res.body).not.toBe(415);
      expect(res.statusCode, res.body).toBeLessThan(500);
    }
    const suspended = (await get(`/api/v1/customers/${customer.id}`)).json();
    expect(suspended.status).toBe('SUSPENDED');
  });

  it('answers 415 UNSUPPORTED_MEDIA_TYPE to a body of another type', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/customers',
      headers: { ...t.admin, 'content-type': 'text/plain' },
      payload: 'name=Acme',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({
      ...errorShape,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      error: 'unsupported_media_type',
    });
  });
});

describe('GraphQL', () => {
  it('answers a query that is not a string as the client error it is', async () => {
    for (const query of [123, null, ['{ customers { totalCount } }']]) {
      const res = await post('/graphql', { query });
      expect(res.statusCode).toBeLessThan(500);
      expect(res.body).not.toMatch(/INTERNAL_ERROR/);
      expect(res.body).toMatch(/VALIDATION_ERROR/);
    }
  });

  it('answers a customer token with FORBIDDEN (as REST does), not UNAUTHORIZED', async () => {
    const res = await post(
      '/graphql',
      { query: '{ customers { totalCount } }' },
      {
        authorization: `Bearer ${customerToken}`,
      },
    );
    expect(res.json().errors).toMatchObject([{ extensions: { code: 'FORBIDDEN' } }]);
  });
});

describe('Composer HTTP semantics', () => {
  const composerAuth = () => ({ authorization: basicAuth(customerToken) });

  it('does not count HEAD on an archive as a download', async () => {
    const p2 = (await get('/p2/acme/lib.json', composerAuth())).json();
    const url = new URL(p2.packages['acme/lib'][0].dist.url);
    const head = await t.app.inject({ method: 'HEAD', url: url.pathname, headers: composerAuth() });
    expect(head.statusCode).toBe(200);
    const stats = (await get('/api/v1/stats/packages/acme/lib')).json();
    expect(stats.total_downloads).toBe(0);
    const real = await get(url.pathname, composerAuth());
    expect(real.statusCode).toBe(200);
    const after = (await get('/api/v1/stats/packages/acme/lib')).json();
    expect(after.total_downloads).toBe(1);
  });

  it('answers If-None-Match: * with 304 when the document exists', async () => {
    const res = await get('/p2/acme/lib.json', { ...composerAuth(), 'if-none-match': '*' });
    expect(res.statusCode).toBe(304);
  });
});
