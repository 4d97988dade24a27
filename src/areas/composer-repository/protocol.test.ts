import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, createTestApp, waitFor } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import { adminApi, addSyncedPackage, createCustomer } from '../../../test/factories.js';

let t: TestApp;
const repos: GitFixture[] = [];

const api = (method: string, url: string, payload?: unknown) => adminApi(t)(method, url, payload);

async function customer(grants: Record<string, string>, token: Record<string, unknown> = {}) {
  const c = await createCustomer(t, `C${Math.random().toString(36).slice(2, 8)}`);
  for (const [pkg, constraint] of Object.entries(grants)) {
    await api('POST', `/api/v1/customers/${c.id}/packages`, { package: pkg, constraint });
  }
  const created = await api('POST', `/api/v1/customers/${c.id}/tokens`, { name: 't', ...token });
  return { id: c.id, auth: { authorization: basicAuth(created.plain_token) } };
}

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });
const versionsOf = (
  res: { json(): { packages: Record<string, { version: string }[]> } },
  name: string,
) => (res.json().packages[name] ?? []).map((v) => v.version);

beforeAll(async () => {
  t = await createTestApp({ BANDWIDTH_LIMIT_BYTES: '0' });
  const lib = new GitFixture('acme/lib');
  lib.release('1.0.0').release('1.2.0-beta1').release('1.2.0').release('2.0.0');
  lib.git('checkout', '-q', '-b', 'feature/x');
  lib.composerJson().commit('feature');
  lib.git('checkout', '-q', 'main');
  const other = new GitFixture('acme/other');
  other.release('1.0.0');
  repos.push(lib, other);
  await addSyncedPackage(t, 'acme/lib', lib.url);
  await addSyncedPackage(t, 'acme/other', other.url);
});
afterAll(async () => {
  await t.close();
  repos.forEach((r) => r.remove());
});

describe('composer repository protocol', () => {
  it('lists only visible packages in packages.json', async () => {
    const c = await customer({ 'acme/lib': '^1.0' });
    const res = await get('/packages.json', c.auth);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      packages: {},
      'metadata-url': '/p2/%package%.json',
      'providers-lazy-url': '/p/%package%.json',
      'available-packages': ['acme/lib'],
      'notify-batch': 'http://packyard.test/downloads/',
    });
    expect(res.json()['security-advisories']['api-url']).toBe(
      'http://packyard.test/api/security-advisories/',
    );
  });

  it('filters versions by the grant constraint, tags and branches apart', async () => {
    const caret = await customer({ 'acme/lib': '^1.0' });
    const tags = await get('/p2/acme/lib.json', caret.auth);
    expect(versionsOf(tags, 'acme/lib')).toEqual(['1.2.0', '1.2.0-beta1', '1.0.0']);
    const entry = tags.json().packages['acme/lib'][0];
    expect(entry).toMatchObject({
      name: 'acme/lib',
      version_normalized: '1.2.0.0',
      require: { php: '>=7.4' },
      autoload: { 'psr-4': { 'Acme\\Lib\\': 'src/' } },
      dist: { type: 'zip', url: 'http://packyard.test/dist/acme/lib/1.2.0.0.zip' },
    });
    expect(entry.dist.shasum).toMatch(/^[0-9a-f]{40}$/);
    expect(versionsOf(await get('/p2/acme/lib~dev.json', caret.auth), 'acme/lib')).toEqual([]);

    const star = await customer({ 'acme/lib': '*' });
    const dev = await get('/p2/acme/lib~dev.json', star.auth);
    expect(versionsOf(dev, 'acme/lib').sort()).toEqual(['dev-feature/x', 'dev-main']);
    const main = dev
      .json()
      .packages['acme/lib'].find((v: { version: string }) => v.version === 'dev-main');
    expect(main['default-branch']).toBe(true);
  });

  it('serves archives whose SHA-1 matches the metadata, with usage headers, and counts them', async () => {
    const c = await customer({ 'acme/lib': '^1.0' });
    const meta = (await get('/p2/acme/lib.json', c.auth)).json().packages['acme/lib'][0];
    const url = new URL(meta.dist.url).pathname;
    const zip = await get(url, c.auth);
    expect(zip.statusCode).toBe(200);
    const { createHash } = await import('node:crypto');
    expect(createHash('sha1').update(zip.rawPayload).digest('hex')).toBe(meta.dist.shasum);
    expect(Number(zip.headers['x-bandwidth-used'])).toBeGreaterThanOrEqual(0);
    expect(zip.headers['x-bandwidth-limit']).toBe('0');
    expect(Number(zip.headers['x-storage-used'])).toBeGreaterThan(0);
    expect(zip.headers['x-storage-limit']).toBe('0');
    const again = await get('/dist/acme/lib/v1.2.0.zip', c.auth);
    expect(again.rawPayload.equals(zip.rawPayload)).toBe(true);
    expect(Number(again.headers['x-bandwidth-used'])).toBe(
      Number(zip.headers['x-bandwidth-used']) + zip.rawPayload.length,
    );
    const pkg = await api('GET', '/api/v1/packages/acme/lib');
    expect(
      pkg.versions.find((v: { version: string }) => v.version === '1.2.0').downloads,
    ).toBeGreaterThanOrEqual(2);
    expect((await get('/dist/acme/lib/2.0.0.zip', c.auth)).statusCode).toBe(403);
    expect((await get('/dist/acme/lib/9.9.9.zip', c.auth)).statusCode).toBe(404);
    expect((await get('/dist/acme/lib/..%2F..%2Fetc.zip', c.auth)).statusCode).toBe(404);
  });

  it('records when a token was last used', async () => {
    const c = await customer({ 'acme/lib': '*' });
    const before = await api('GET', `/api/v1/customers/${c.id}/tokens`);
    expect(before.data[0].last_used_at).toBeNull();
    await get('/packages.json', c.auth);
    const after = await waitFor(
      () => api('GET', `/api/v1/customers/${c.id}/tokens`),
      (list) => list.data[0].last_used_at !== null,
    );
    expect(Date.parse(after.data[0].last_used_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('answers 401, 403 and 404 as the contract says', async () => {
    const c = await customer({ 'acme/lib': '*' });
    expect((await get('/p2/acme/lib.json')).statusCode).toBe(401);
    expect(
      (await get('/p2/acme/lib.json', { authorization: basicAuth('pkt_wrong') })).statusCode,
    ).toBe(401);
    const notBase64 = await get('/p2/acme/lib.json', { authorization: 'Basic %%%not-base64' });
    expect(notBase64.statusCode).toBe(401);
    expect(notBase64.json()).toMatchObject({ error: 'unauthorized', code: 'UNAUTHORIZED' });
    expect((await get('/p2/acme/other.json', c.auth)).statusCode).toBe(403);
    expect((await get('/p2/acme/missing.json', c.auth)).statusCode).toBe(404);
    const bearer = c.auth.authorization.replace(
      /^Basic (.*)$/,
      (_m, b64: string) => `Bearer ${Buffer.from(b64, 'base64').toString().slice('token:'.length)}`,
    );
    expect((await get('/p2/acme/lib.json', { authorization: bearer })).statusCode).toBe(200);
  });

  it('hides yanked versions from metadata but keeps their archives, and marks deprecated ones', async () => {
    const c = await customer({ 'acme/other': '*' });
    await api('POST', '/api/v1/packages/acme/other/yank/1.0.0');
    await api('POST', '/api/v1/packages/acme/other/deprecate/dev-main');
    try {
      expect(versionsOf(await get('/p2/acme/other.json', c.auth), 'acme/other')).toEqual([]);
      expect((await get('/dist/acme/other/1.0.0.zip', c.auth)).statusCode).toBe(200);
      const dev = (await get('/p2/acme/other~dev.json', c.auth)).json().packages['acme/other'];
      expect(dev[0]).toMatchObject({ version: 'dev-main', deprecated: true });
    } finally {
      await api('POST', '/api/v1/packages/acme/other/unyank/1.0.0');
    }
  });

  it('shows a frozen customer only its frozen versions', async () => {
    const c = await customer({ 'acme/lib': '*', 'acme/other': '*' });
    await api('POST', `/api/v1/customers/${c.id}/freeze`, {
      versions: [{ package: 'acme/lib', version: '1.0.0' }],
    });
    expect((await get('/packages.json', c.auth)).json()['available-packages']).toEqual([
      'acme/lib',
    ]);
    expect(versionsOf(await get('/p2/acme/lib.json', c.auth), 'acme/lib')).toEqual(['1.0.0']);
    expect((await get('/p2/acme/other.json', c.auth)).statusCode).toBe(403);
    await api('POST', `/api/v1/customers/${c.id}/reactivate`);
    expect((await get('/p2/acme/other.json', c.auth)).statusCode).toBe(200);
  });

  it('refuses suspended and expired customers and webhook-scope tokens with 403', async () => {
    const s = await customer({ 'acme/lib': '*' });
    await api('POST', `/api/v1/customers/${s.id}/suspend`);
    expect((await get('/packages.json', s.auth)).statusCode).toBe(403);
    const e = await customer({ 'acme/lib': '*' });
    await api('PATCH', `/api/v1/customers/${e.id}`, {
      access_expires_at: new Date(Date.now() - 1000).toISOString(),
    });
    expect((await get('/p2/acme/lib.json', e.auth)).statusCode).toBe(403);
    const w = await customer({ 'acme/lib': '*' }, { scope: 'webhook' });
    expect((await get('/p2/acme/lib.json', w.auth)).statusCode).toBe(403);
  });

  it('answers 304 to If-Modified-Since and If-None-Match, and changes when access changes', async () => {
    const c = await customer({ 'acme/lib': '^1.0' });
    const first = await get('/p2/acme/lib.json', c.auth);
    const lastModified = String(first.headers['last-modified']);
    const etag = String(first.headers.etag);
    expect(
      (await get('/p2/acme/lib.json', { ...c.auth, 'if-modified-since': lastModified })).statusCode,
    ).toBe(304);
    expect((await get('/p2/acme/lib.json', { ...c.auth, 'if-none-match': etag })).statusCode).toBe(
      304,
    );
    await new Promise((r) => setTimeout(r, 1100)); // Last-Modified has one-second precision
    await api('PUT', `/api/v1/customers/${c.id}/packages`, {
      packages: [{ package: 'acme/lib', constraint: '^2.0' }],
    });
    const changed = await get('/p2/acme/lib.json', {
      ...c.auth,
      'if-modified-since': lastModified,
    });
    expect(changed.statusCode).toBe(200);
    expect(versionsOf(changed, 'acme/lib')).toEqual(['2.0.0']);
  });

  it('answers 429 once the monthly bandwidth limit is used up', async () => {
    const limited = await createTestApp({ BANDWIDTH_LIMIT_BYTES: '1' });
    try {
      const r = new GitFixture('acme/tiny');
      repos.push(r);
      r.release('1.0.0');
      await addSyncedPackage(limited, 'acme/tiny', r.url);
      const c = await createCustomer(limited, 'Limited');
      const call = (method: string, url: string, payload?: object) =>
        limited.app.inject({ method: method as 'GET', url, headers: limited.admin, payload });
      await call('POST', `/api/v1/customers/${c.id}/packages`, {
        package: 'acme/tiny',
        constraint: '*',
      });
      const token = (await call('POST', `/api/v1/customers/${c.id}/tokens`, { name: 't' })).json()
        .plain_token;
      const auth = { authorization: basicAuth(token) };
      expect(
        (await limited.app.inject({ url: '/dist/acme/tiny/1.0.0.zip', headers: auth })).statusCode,
      ).toBe(200);
      const over = await limited.app.inject({ url: '/dist/acme/tiny/1.0.0.zip', headers: auth });
      expect(over.statusCode).toBe(429);
      expect(over.json().code).toBe('RATE_LIMITED');
      expect(over.headers['x-bandwidth-limit']).toBe('1');
    } finally {
      await limited.close();
    }
  });
});
