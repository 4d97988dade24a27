import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import { adminApi, addSyncedPackage, createCustomer } from '../../../test/factories.js';

/**
 * Composer revalidates cached p2 files with If-Modified-Since only. Every change to what a token
 * may see must move Last-Modified strictly past the value served before, even when it happens
 * within the same second as that download: over real HTTP, through the p2 fast path.
 */
let t: TestApp;
let base: string;
const repos: GitFixture[] = [];
const api = (method: string, url: string, payload?: unknown) => adminApi(t)(method, url, payload);

async function customer(grants: Record<string, string>) {
  const c = await createCustomer(t, `LM${Math.random().toString(36).slice(2, 8)}`);
  for (const [pkg, constraint] of Object.entries(grants)) {
    await api('POST', `/api/v1/customers/${c.id}/packages`, { package: pkg, constraint });
  }
  const created = await api('POST', `/api/v1/customers/${c.id}/tokens`, { name: 't' });
  return { id: c.id, authorization: basicAuth(created.plain_token as string) };
}

async function p2(authorization: string, since?: string) {
  const headers: Record<string, string> = { authorization };
  if (since) headers['if-modified-since'] = since;
  const res = await fetch(`${base}/p2/acme/lib.json`, { headers });
  const body = res.status === 200 ? ((await res.json()) as Record<string, unknown>) : null;
  return { status: res.status, lastModified: res.headers.get('last-modified') ?? '', body };
}

/** A 200, then `change` at once, then Composer's revalidation: it must get the new document. */
async function expectRevalidated(authorization: string, change: () => Promise<unknown>) {
  const before = await p2(authorization);
  expect(before.status).toBe(200);
  // The copy is current now: Composer would be answered 304.
  expect((await p2(authorization, before.lastModified)).status).toBe(304);
  await change();
  const after = await p2(authorization, before.lastModified);
  expect(after.status).toBe(200);
  expect(Date.parse(after.lastModified)).toBeGreaterThan(Date.parse(before.lastModified));
  expect(after.body).not.toEqual(before.body);
  return after;
}

beforeAll(async () => {
  t = await createTestApp();
  const lib = new GitFixture('acme/lib');
  lib.release('1.0.0').release('1.1.0').release('2.0.0');
  repos.push(lib);
  await addSyncedPackage(t, 'acme/lib', lib.url);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('not listening');
  base = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await t.close();
  repos.forEach((r) => r.remove());
});

describe('Last-Modified moves with every change to what a token may see', () => {
  it('a changed grant', async () => {
    const c = await customer({ 'acme/lib': '^1.0' });
    await expectRevalidated(c.authorization, () =>
      api('PUT', `/api/v1/customers/${c.id}/packages`, {
        packages: [{ package: 'acme/lib', constraint: '^2.0' }],
      }),
    );
  });

  it('a collection granted, its membership changed, and the grant revoked', async () => {
    const c = await customer({ 'acme/lib': '1.0.0' });
    const slug = `lm-${Math.random().toString(36).slice(2, 8)}`;
    await api('POST', '/api/v1/collections', { name: slug, slug, packages: [] });
    await expectRevalidated(c.authorization, async () => {
      await api('POST', `/api/v1/customers/${c.id}/collections`, { collection: slug });
      await api('PATCH', `/api/v1/collections/${slug}`, { add_packages: ['acme/lib'] });
    });
    await expectRevalidated(c.authorization, () =>
      api('DELETE', `/api/v1/customers/${c.id}/collections/${slug}`),
    );
  });

  it('a membership change alone', async () => {
    const c = await customer({ 'acme/lib': '1.0.0' });
    const slug = `lm-${Math.random().toString(36).slice(2, 8)}`;
    await api('POST', '/api/v1/collections', { name: slug, slug, packages: [] });
    await api('POST', `/api/v1/customers/${c.id}/collections`, { collection: slug });
    await expectRevalidated(c.authorization, () =>
      api('PATCH', `/api/v1/collections/${slug}`, { packages: ['acme/lib'] }),
    );
  });

  it('freeze, then reactivate', async () => {
    const c = await customer({ 'acme/lib': '*' });
    await expectRevalidated(c.authorization, () =>
      api('POST', `/api/v1/customers/${c.id}/freeze`, {
        versions: [{ package: 'acme/lib', version: '1.0.0' }],
      }),
    );
    await expectRevalidated(c.authorization, () =>
      api('POST', `/api/v1/customers/${c.id}/reactivate`),
    );
  });

  it('a status change: suspended (403), then reactivated', async () => {
    const c = await customer({ 'acme/lib': '^1.0' });
    const before = await p2(c.authorization);
    await api('POST', `/api/v1/customers/${c.id}/suspend`, { reason: 'unpaid' });
    expect((await p2(c.authorization, before.lastModified)).status).toBe(403);
    await api('PUT', `/api/v1/customers/${c.id}/packages`, {
      packages: [{ package: 'acme/lib', constraint: '^2.0' }],
    });
    await api('POST', `/api/v1/customers/${c.id}/reactivate`);
    const after = await p2(c.authorization, before.lastModified);
    expect(after.status).toBe(200);
    expect(Date.parse(after.lastModified)).toBeGreaterThan(Date.parse(before.lastModified));
  });

  it('a yanked version, and the same version unyanked', async () => {
    const c = await customer({ 'acme/lib': '^1.0' });
    await expectRevalidated(c.authorization, () =>
      api('POST', '/api/v1/packages/acme/lib/yank/1.1.0'),
    );
    await expectRevalidated(c.authorization, () =>
      api('POST', '/api/v1/packages/acme/lib/unyank/1.1.0'),
    );
  });

  it('leaves a document alone (304) when a read-only POST ran', async () => {
    const c = await customer({ 'acme/lib': '^1.0' });
    const before = await p2(c.authorization);
    const generation = t.runtime.services.deps.generations.current('default');
    await api('POST', '/api/v1/packages/acme/lib/validate');
    expect(t.runtime.services.deps.generations.current('default')).toBe(generation);
    expect((await p2(c.authorization, before.lastModified)).status).toBe(304);
  });
});
