import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { basicAuth, cloudTenant } from '../helpers.js';
import { packageZip } from '../../src/areas/artifacts/test-zips.js';
import { GitFixture } from '../fixtures/git-repo.js';
import { adminApi, addSyncedPackage, createCustomer } from '../factories.js';
import { startServer } from './server.js';
import type { RunningServer } from './server.js';

let s: RunningServer;
let repo: GitFixture;
let auth: string;
let customerId: string;
let tokenId: string;

const api = (method: string, url: string, payload?: unknown) => adminApi(s)(method, url, payload);

beforeAll(async () => {
  s = await startServer();
  repo = new GitFixture('acme/fast');
  repo.release('1.0.0').release('2.0.0');
  await addSyncedPackage(s, 'acme/fast', repo.url);
  customerId = (await createCustomer(s, 'Fast')).id;
  await api('POST', `/api/v1/customers/${customerId}/packages`, {
    package: 'acme/fast',
    constraint: '^1.0',
  });
  const token = await api('POST', `/api/v1/customers/${customerId}/tokens`, { name: 't' });
  auth = basicAuth(token.plain_token);
  tokenId = token.token.id;
});
afterAll(async () => {
  await s.close();
  repo.remove();
});

const fetchP2 = (headers: Record<string, string> = {}) =>
  fetch(`${s.url}/p2/acme/fast.json`, { headers: { authorization: auth, ...headers } });

describe('p2 answers served from the cache over real HTTP', () => {
  it('are the same bytes and headers as the first, computed answer', async () => {
    const first = await fetchP2();
    const hits = s.app.p2FastPath.hits;
    const second = await fetchP2();
    expect(second.status).toBe(200);
    expect(s.app.p2FastPath.hits).toBe(hits + 1);
    const body = await first.text();
    expect(await second.text()).toBe(body);
    expect(
      JSON.parse(body).packages['acme/fast'].map((v: { version: string }) => v.version),
    ).toEqual(['1.0.0']);
    for (const header of ['etag', 'last-modified', 'content-type']) {
      expect(second.headers.get(header), header).toBe(
        first.headers.get(header)?.replace('; charset=utf-8', ''),
      );
    }
    const lastModified = String(first.headers.get('last-modified'));
    expect((await fetchP2({ 'if-modified-since': lastModified })).status).toBe(304);
    expect((await fetchP2({ 'if-none-match': String(first.headers.get('etag')) })).status).toBe(
      304,
    );
  });

  it('stop as soon as access changes', async () => {
    expect((await fetchP2()).status).toBe(200);
    await api('PUT', `/api/v1/customers/${customerId}/packages`, {
      packages: [{ package: 'acme/fast', constraint: '^2.0' }],
    });
    const changed = (await (await fetchP2()).json()) as {
      packages: Record<string, { version: string }[]>;
    };
    expect(changed.packages['acme/fast']?.map((v: { version: string }) => v.version)).toEqual([
      '2.0.0',
    ]);
    await api('DELETE', `/api/v1/customers/${customerId}/tokens/${tokenId}`);
    expect((await fetchP2()).status).toBe(401);
  });
});

describe('in Cloud, on a tenant host', () => {
  it('answers a cached p2 from the fast path too', async () => {
    const cloud = await startServer({ EDITION: 'cloud' });
    try {
      const tenant = await cloudTenant(cloud, 'fast');
      const call = (url: string, payload: object) =>
        cloud.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: tenant.admin, payload });
      await call('/packages', { name: 'acme/zip', type: 'artifact' });
      await cloud.app.inject({
        method: 'POST',
        url: '/api/v1/packages/acme/zip/artifacts?version=1.0.0',
        headers: { ...tenant.admin, 'content-type': 'application/zip' },
        payload: packageZip({ name: 'acme/zip' }, { 'a.php': '<?php' }),
      });
      const customer = (await call('/customers', { name: 'C', email: 'c@x.test' })).json<{
        id: string;
      }>();
      await call(`/customers/${customer.id}/packages`, { package: 'acme/zip', constraint: '*' });
      const token = (await call(`/customers/${customer.id}/tokens`, { name: 't' })).json<{
        plain_token: string;
      }>();
      // Over real HTTP with the tenant's Host header (fetch may not set it).
      const get = () =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const url = new URL(`${cloud.url}/p2/acme/zip.json`);
          http
            .get(
              {
                host: url.hostname,
                port: url.port,
                path: url.pathname,
                headers: { host: tenant.host, authorization: basicAuth(token.plain_token) },
              },
              (res) => {
                let body = '';
                res.on('data', (c: Buffer) => (body += c.toString('utf8')));
                res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
              },
            )
            .on('error', reject);
        });
      const first = await get();
      expect(first.status, first.body).toBe(200);
      const hits = cloud.app.p2FastPath.hits;
      const second = await get();
      expect(second).toEqual(first);
      expect(cloud.app.p2FastPath.hits).toBe(hits + 1);
    } finally {
      await cloud.close();
    }
  });
});
