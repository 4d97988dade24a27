import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, basicAuth, cloudTenant, createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { packageZip } from '../artifacts/test-zips.js';
import { hostTarget } from './host.js';

describe('hostTarget', () => {
  it.each([
    ['acme.packyard.test', { kind: 'tenant', label: 'acme' }],
    ['ACME.PackYard.Test', { kind: 'tenant', label: 'acme' }],
    ['acme.packyard.test:8443', { kind: 'tenant', label: 'acme' }],
    ['acme.packyard.test.', { kind: 'tenant', label: 'acme' }],
    ['acme.packyard.test.:80', { kind: 'tenant', label: 'acme' }],
    ['xn--bcher-kva.packyard.test', { kind: 'tenant', label: 'xn--bcher-kva' }],
    ['a.b.packyard.test', { kind: 'unknown' }],
    ['-acme.packyard.test', { kind: 'unknown' }],
    ['bücher.packyard.test', { kind: 'unknown' }],
    ['packyard.test', { kind: 'none' }],
    ['packyard.test:8080', { kind: 'none' }],
    ['evilpackyard.test', { kind: 'none' }],
    ['acme.other.test', { kind: 'none' }],
    ['127.0.0.1:3000', { kind: 'none' }],
    ['[::1]:3000', { kind: 'none' }],
    ['', { kind: 'none' }],
    [undefined, { kind: 'none' }],
  ])('%s -> %o', (host, expected) => {
    expect(hostTarget(host, 'packyard.test')).toEqual(expected);
  });
});

describe('the Cloud edition resolves the tenant from Host', () => {
  let t: TestApp;
  let acme: Awaited<ReturnType<typeof cloudTenant>>;
  let gamma: Awaited<ReturnType<typeof cloudTenant>>;
  let basic: string;

  const get = (url: string, headers: Record<string, string | undefined>) =>
    t.app.inject({ url, headers: headers as Record<string, string> });

  beforeAll(async () => {
    t = await createTestApp({ EDITION: 'cloud', WORKER: 'off' });
    acme = await cloudTenant(t, 'acme');
    gamma = await cloudTenant(t, 'gamma');
    await cloudTenant(t, 'beta', 'suspended');
    await cloudTenant(t, 'gone', 'deleted');
    const api = async (method: 'POST', url: string, payload: unknown, type = 'json') => {
      const res = await t.app.inject({
        method,
        url,
        headers: {
          ...acme.admin,
          'content-type': type === 'zip' ? 'application/zip' : 'application/json',
        },
        payload: payload as string,
      });
      if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
      return res.json<Record<string, unknown>>();
    };
    await api('POST', '/api/v1/packages', { name: 'acme/lib', type: 'artifact' });
    await api(
      'POST',
      '/api/v1/packages/acme/lib/artifacts?version=1.0.0',
      packageZip({ name: 'acme/lib' }, { 'a.php': '<?php' }),
      'zip',
    );
    const customer = await api('POST', '/api/v1/customers', { name: 'C', email: 'c@acme.test' });
    await api('POST', `/api/v1/customers/${String(customer.id)}/packages`, {
      package: 'acme/lib',
      constraint: '*',
    });
    const token = await api('POST', `/api/v1/customers/${String(customer.id)}/tokens`, {
      name: 'ci',
    });
    basic = basicAuth(String(token.plain_token));
  });
  afterAll(async () => t.close());

  it('answers 400 tenant_required on a host that names no tenant, before any token', async () => {
    // (Without a Host header, the test client sends `localhost:80`.)
    for (const host of [
      'packyard.test',
      '127.0.0.1:3000',
      'registry.example.com',
      'localhost:80',
    ]) {
      const res = await get('/api/v1/customers', {
        host,
        authorization: acme.admin.authorization,
      });
      expect(res.statusCode, String(host)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'tenant_required', code: 'TENANT_REQUIRED' });
    }
  });

  it('answers 404 tenant_not_found for an unknown, deleted or nested subdomain', async () => {
    const hosts = ['nobody', 'gone', 'a.acme', 'www', 'api', 'admin'].map(
      (l) => `${l}.packyard.test`,
    );
    for (const host of hosts) {
      const res = await get('/p2/acme/lib.json', { host, authorization: basic });
      expect(res.statusCode, host).toBe(404);
      expect(res.json()).toMatchObject({ error: 'tenant_not_found', code: 'TENANT_NOT_FOUND' });
    }
  });

  it('answers 403 tenant_suspended on every route of a suspended tenant, without a token too', async () => {
    for (const url of ['/api/v1/customers', '/packages.json', '/p2/acme/lib.json']) {
      const res = await get(url, { host: 'beta.packyard.test' });
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({ code: 'TENANT_SUSPENDED' });
    }
    // GraphQL answers in its own error format (docs/graphql.md).
    const gql = await get('/graphql', { host: 'beta.packyard.test' });
    expect(gql.json().errors).toMatchObject([{ extensions: { code: 'TENANT_SUSPENDED' } }]);
    const hook = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/github',
      headers: { host: 'beta.packyard.test', 'content-type': 'application/json' },
      payload: {},
    });
    expect(hook.statusCode).toBe(403);
    expect(hook.json()).toMatchObject({ code: 'TENANT_SUSPENDED' });
  });

  it("serves a tenant's own data on its host, whatever the case, port or trailing dot", async () => {
    for (const host of ['acme.packyard.test', 'ACME.Packyard.TEST:8080', 'acme.packyard.test.']) {
      const res = await get('/api/v1/customers', { ...acme.admin, host });
      expect(res.statusCode, host).toBe(200);
      expect(res.json().data).toMatchObject([{ name: 'C' }]);
    }
    const other = await get('/api/v1/customers', gamma.admin);
    expect(other.json()).toMatchObject({ data: [], pagination: { total: 0 } });
  });

  it("refuses ADMIN_TOKEN and another tenant's tokens on a tenant's host (401)", async () => {
    const root = await get('/api/v1/customers', {
      host: acme.host,
      authorization: `Bearer ${ADMIN_TOKEN}`,
    });
    expect(root.statusCode).toBe(401);
    const foreign = await get('/api/v1/customers', { ...gamma.admin, host: acme.host });
    expect(foreign.statusCode).toBe(401);
    const composer = await get('/p2/acme/lib.json', { host: gamma.host, authorization: basic });
    expect(composer.statusCode).toBe(401);
  });

  it("gives Composer the tenant's own absolute URLs, and caches p2 per tenant", async () => {
    const root = await get('/packages.json', { host: acme.host, authorization: basic });
    expect(root.statusCode).toBe(200);
    expect(root.json()['notify-batch']).toBe('http://acme.packyard.test/downloads/');
    const first = await get('/p2/acme/lib.json', { host: acme.host, authorization: basic });
    expect(first.statusCode).toBe(200);
    const dist = first.json().packages['acme/lib'][0].dist.url as string;
    expect(dist.startsWith('http://acme.packyard.test/dist/acme/lib/')).toBe(true);
    // The cached answer is the tenant's: the same token on another host is still refused.
    expect(
      (await get('/p2/acme/lib.json', { host: gamma.host, authorization: basic })).statusCode,
    ).toBe(401);
  });

  it('answers probes by address, and the platform API on any host', async () => {
    expect((await get('/healthz', { host: '10.0.0.7:3000' })).statusCode).toBe(200);
    const platform = await get('/api/v1/tenants', { host: 'packyard.test' });
    expect(platform.json().code).not.toBe('TENANT_REQUIRED');
  });
});
