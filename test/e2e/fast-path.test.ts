import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth } from '../helpers.js';
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
