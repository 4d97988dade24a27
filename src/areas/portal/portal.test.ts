import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import { adminApi, addSyncedPackage, createCustomer } from '../../../test/factories.js';

// The customer portal's API (docs/portal.md) on a real app and real synced git repositories.
let t: TestApp;
const repos: GitFixture[] = [];
const api = (method: string, url: string, payload?: unknown) => adminApi(t)(method, url, payload);

interface Customer {
  id: string;
  tokenId: string;
  plain: string;
  basic: { authorization: string };
  bearer: { authorization: string };
}

async function customer(grants: Record<string, string>, scope = 'admin'): Promise<Customer> {
  const c = await createCustomer(t, `C${Math.random().toString(36).slice(2, 8)}`);
  for (const [pkg, constraint] of Object.entries(grants)) {
    await api('POST', `/api/v1/customers/${c.id}/packages`, { package: pkg, constraint });
  }
  const created = await api('POST', `/api/v1/customers/${c.id}/tokens`, { name: 'laptop', scope });
  return {
    id: c.id,
    tokenId: created.token.id,
    plain: created.plain_token,
    basic: { authorization: basicAuth(created.plain_token) },
    bearer: { authorization: `Bearer ${created.plain_token}` },
  };
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, headers: object = {}, payload?: object) =>
  t.app.inject({ method, url, headers: { ...headers }, payload });

/** The versions of both p2 documents of `name` for these credentials, tags first. */
async function p2Versions(headers: object, name: string): Promise<string[]> {
  const out: string[] = [];
  for (const file of [`${name}.json`, `${name}~dev.json`]) {
    const res = await call('GET', `/p2/${file}`, headers);
    expect(res.statusCode, res.body).toBe(200);
    out.push(...res.json().packages[name].map((v: { version: string }) => v.version));
  }
  return out;
}

beforeAll(async () => {
  t = await createTestApp();
  const lib = new GitFixture('acme/lib');
  lib.write('README.md', '# Acme Lib\n\nThe **readme**.');
  lib.release('1.0.0').release('1.2.0').release('2.0.0');
  const other = new GitFixture('acme/other');
  other.release('1.0.0');
  repos.push(lib, other);
  await addSyncedPackage(t, 'acme/lib', lib.url);
  await addSyncedPackage(t, 'acme/other', other.url);
});
afterAll(async () => {
  await t?.close();
  repos.forEach((r) => r.remove());
});

describe('the customer portal API', () => {
  it('says who the token is, by HTTP Basic or Bearer', async () => {
    const c = await customer({ 'acme/lib': '^1.0' });
    for (const headers of [c.basic, c.bearer]) {
      const res = await call('GET', '/api/v1/me', headers);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        customer: {
          id: c.id,
          name: expect.any(String),
          status: 'ACTIVE',
          access_expires_at: null,
        },
        token: { id: c.tokenId, name: 'laptop', scope: 'admin', expires_at: null },
      });
    }
    expect((await call('GET', '/api/v1/me')).statusCode).toBe(401);
    const bad = await call('GET', '/api/v1/me', { authorization: basicAuth('pkt_nope') });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toMatchObject({ error: 'unauthorized', code: 'UNAUTHORIZED' });
  });

  it('lists exactly the packages and versions of the token p2 documents, nothing of others', async () => {
    const a = await customer({ 'acme/lib': '^1.0' });
    const b = await customer({ 'acme/other': '*' });
    const res = await call('GET', '/api/v1/me/packages', a.bearer);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      data: [
        {
          name: 'acme/lib',
          description: 'The acme/lib package',
          versions: await p2Versions(a.basic, 'acme/lib'),
        },
      ],
      pagination: { page: 1, per_page: 25, total: 1, total_pages: 1 },
    });
    expect(res.json().data[0].versions).toEqual(['1.2.0', '1.0.0']);

    const theirs = await call('GET', '/api/v1/me/packages', b.basic);
    expect(theirs.json().data.map((p: { name: string }) => p.name)).toEqual(['acme/other']);
    expect(theirs.json().data[0].versions).toEqual(await p2Versions(b.basic, 'acme/other'));
    expect(theirs.json().data[0].versions).toContain('dev-main');
    expect(theirs.body).not.toContain('acme/lib');

    // Another customer's package: the p2 answer, word for word.
    const p2 = await call('GET', '/p2/acme/other.json', a.basic);
    const detail = await call('GET', '/api/v1/me/packages/acme/other', a.basic);
    expect(detail.statusCode).toBe(403);
    expect(detail.json()).toEqual(p2.json());
    expect((await call('GET', '/api/v1/me/packages/acme/none', a.basic)).statusCode).toBe(404);
  });

  it('shows a frozen customer only its frozen versions, as p2 does', async () => {
    const f = await customer({ 'acme/lib': '*', 'acme/other': '*' });
    await api('POST', `/api/v1/customers/${f.id}/freeze`, {
      versions: [{ package: 'acme/lib', version: '1.0.0' }],
    });
    const res = await call('GET', '/api/v1/me/packages', f.bearer);
    expect(res.json().data).toEqual([
      { name: 'acme/lib', description: 'The acme/lib package', versions: ['1.0.0'] },
    ]);
    expect(res.json().data[0].versions).toEqual(await p2Versions(f.basic, 'acme/lib'));
    const other = await call('GET', '/api/v1/me/packages/acme/other', f.bearer);
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual((await call('GET', '/p2/acme/other.json', f.basic)).json());
  });

  it('shows one package with its versions and readme', async () => {
    const a = await customer({ 'acme/lib': '>=1.2' });
    const res = await call('GET', '/api/v1/me/packages/acme/lib', a.bearer);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      name: 'acme/lib',
      description: 'The acme/lib package',
      readme: { format: 'markdown', content: '# Acme Lib\n\nThe **readme**.' },
    });
    expect(body.versions.map((v: { version: string }) => v.version)).toEqual(['2.0.0', '1.2.0']);
    expect(body.versions.map((v: { version: string }) => v.version)).toEqual(
      await p2Versions(a.basic, 'acme/lib'),
    );
    expect(body.versions[0]).toEqual({
      version: '2.0.0',
      released_at: expect.any(String),
      kind: 'tag',
    });
    const page = await call('GET', '/api/v1/me/packages?per_page=101', a.bearer);
    expect(page.statusCode).toBe(400);
  });

  it('answers a suspended or expired customer and a webhook token as p2 does', async () => {
    const s = await customer({ 'acme/lib': '*' });
    await api('POST', `/api/v1/customers/${s.id}/suspend`, { reason: 'unpaid' });
    const p2 = await call('GET', '/packages.json', s.basic);
    expect(p2.statusCode).toBe(403);
    for (const url of ['/api/v1/me', '/api/v1/me/packages', '/api/v1/me/tokens']) {
      const res = await call('GET', url, s.bearer);
      expect(res.statusCode, url).toBe(403);
      expect(res.json(), url).toEqual(p2.json());
    }
    const e = await customer({ 'acme/lib': '*' });
    // Its access ran out a minute ago: every request checks, so no sweep is needed.
    await t.db
      .updateTable('customers')
      .set({ access_expires_at: new Date(Date.now() - 60_000).toISOString() })
      .where('id', '=', e.id)
      .execute();
    const expiredP2 = await call('GET', '/packages.json', e.basic);
    expect(expiredP2.statusCode).toBe(403);
    expect((await call('GET', '/api/v1/me/packages', e.basic)).json()).toEqual(expiredP2.json());

    const w = await customer({ 'acme/lib': '*' }, 'webhook');
    expect((await call('GET', '/packages.json', w.basic)).statusCode).toBe(403);
    const me = await call('GET', '/api/v1/me', w.basic);
    expect(me.statusCode).toBe(403);
    expect(me.json().code).toBe('FORBIDDEN');
  });

  it('lets a customer-admin token create and revoke its own customer download and developer tokens', async () => {
    const a = await customer({ 'acme/lib': '^1.0' });
    const other = await customer({ 'acme/other': '*' });
    const created = await call('POST', '/api/v1/me/tokens', a.bearer, {
      name: 'ci',
      scope: 'developer',
    });
    expect(created.statusCode, created.body).toBe(201);
    const issued = created.json();
    expect(issued.plain_token).toMatch(/^pkt_/);
    expect(issued.token).toMatchObject({ name: 'ci', scope: 'developer' });
    expect(issued.composer_auth).toEqual({
      username: 'token',
      password: issued.plain_token,
      repository_url: 'http://packyard.test',
    });
    // The new token works on the Composer surface and sees what its customer sees.
    const fresh = { authorization: basicAuth(issued.plain_token) };
    expect((await call('GET', '/packages.json', fresh)).json()['available-packages']).toEqual([
      'acme/lib',
    ]);
    const list = await call('GET', '/api/v1/me/tokens', a.basic);
    expect(
      list
        .json()
        .data.map((x: { name: string }) => x.name)
        .sort(),
    ).toEqual(['ci', 'laptop']);
    expect(list.body).not.toContain(issued.plain_token);
    const stored = await t.db
      .selectFrom('customer_tokens')
      .select('token_digest')
      .where('id', '=', issued.token.id)
      .executeTakeFirstOrThrow();
    expect(stored.token_digest).not.toContain(issued.plain_token);

    // Only download and developer tokens are made here.
    const admin = await call('POST', '/api/v1/me/tokens', a.bearer, { name: 'x', scope: 'admin' });
    expect(admin.statusCode).toBe(400);
    expect(admin.json().code).toBe('VALIDATION_ERROR');
    const extra = await call('POST', '/api/v1/me/tokens', a.bearer, { name: 'x', customer: 'y' });
    expect(extra.statusCode).toBe(400);

    // A developer token sees the list but may not change it.
    const dev = { authorization: `Bearer ${issued.plain_token}` };
    expect((await call('GET', '/api/v1/me/tokens', dev)).statusCode).toBe(200);
    const refused = await call('POST', '/api/v1/me/tokens', dev, { name: 'y' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'forbidden', code: 'FORBIDDEN' });
    const refusedDelete = await call('DELETE', `/api/v1/me/tokens/${a.tokenId}`, dev);
    expect(refusedDelete.statusCode).toBe(403);

    // Another customer's token is not found, and stays.
    const theirs = await call('DELETE', `/api/v1/me/tokens/${other.tokenId}`, a.bearer);
    expect(theirs.statusCode).toBe(404);
    expect((await call('GET', '/api/v1/me', other.basic)).statusCode).toBe(200);

    const revoked = await call('DELETE', `/api/v1/me/tokens/${issued.token.id}`, a.bearer);
    expect(revoked.statusCode).toBe(204);
    expect((await call('GET', '/packages.json', fresh)).statusCode).toBe(401);
    const audit = await api('GET', '/api/v1/audit?per_page=100');
    const actions = audit.data.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['token.create', 'token.revoke']));
  });

  it('never lets a customer token reach an admin route, nor an admin token the portal', async () => {
    const a = await customer({ 'acme/lib': '*' });
    for (const [method, url] of [
      ['GET', '/api/v1/customers'],
      ['GET', `/api/v1/customers/${a.id}/tokens`],
      ['POST', `/api/v1/customers/${a.id}/tokens`],
      ['GET', '/api/v1/settings'],
      ['PATCH', '/api/v1/settings'],
      ['GET', '/api/v1/packages'],
      ['GET', '/api/v1/audit'],
    ] as const) {
      const res = await call(method, url, a.bearer, method === 'GET' ? undefined : {});
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    const asAdmin = await call('GET', '/api/v1/me', t.admin);
    expect(asAdmin.statusCode).toBe(403);
    expect(asAdmin.json().code).toBe('FORBIDDEN');
  });

  it('takes the portal title and accent colour in settings, and shows them without credentials', async () => {
    const set = await call('PATCH', '/api/v1/settings', t.admin, {
      portal: { title: 'Acme Packages', accent_color: '#C0FFEE' },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().portal).toEqual({ title: 'Acme Packages', accent_color: '#c0ffee' });
    expect((await call('GET', '/api/v1/settings', t.admin)).json().portal).toEqual({
      title: 'Acme Packages',
      accent_color: '#c0ffee',
    });
    const info = await call('GET', '/api/v1/portal');
    expect(info.statusCode).toBe(200);
    expect(info.json()).toEqual({
      title: 'Acme Packages',
      accent_color: '#c0ffee',
      repository_url: 'http://packyard.test',
    });
    for (const portal of [
      { accent_color: 'red' },
      { accent_color: '#12345' },
      { title: '' },
      { title: 'x'.repeat(101) },
      { logo: 'x' },
    ]) {
      const bad = await call('PATCH', '/api/v1/settings', t.admin, { portal });
      expect(bad.statusCode, JSON.stringify(portal)).toBe(400);
      expect(bad.json().code).toBe('VALIDATION_ERROR');
    }
    const cleared = await call('PATCH', '/api/v1/settings', t.admin, {
      portal: { title: null },
    });
    expect(cleared.json().portal).toEqual({ title: null, accent_color: '#c0ffee' });
  });
});
