import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import {
  adminApi,
  addSyncedPackage,
  createCustomer,
  waitForSync,
} from '../../../test/factories.js';

let t: TestApp;
const repos: Record<string, GitFixture> = {};
const api = (method: string, url: string, payload?: unknown) => adminApi(t)(method, url, payload);

interface Action {
  type: string;
  package: string;
  time: number;
}

async function customer(grants: Record<string, string>) {
  const c = await createCustomer(t, `C${Math.random().toString(36).slice(2, 8)}`);
  for (const [pkg, constraint] of Object.entries(grants)) {
    await api('POST', `/api/v1/customers/${c.id}/packages`, { package: pkg, constraint });
  }
  const created = await api('POST', `/api/v1/customers/${c.id}/tokens`, { name: 't' });
  return { id: c.id, auth: { authorization: basicAuth(created.plain_token) } };
}

/** 10,000 × the unix time of now: the unit of `since`. */
const sinceNow = () => Date.now() * 10;

async function changes(auth: Record<string, string>, since: number | string) {
  const res = await t.app.inject({ url: `/metadata/changes.json?since=${since}`, headers: auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ actions: Action[]; timestamp: number }>();
}

const names = (actions: Action[]) => actions.map((a) => `${a.type} ${a.package}`).sort();

async function release(name: string, version: string) {
  repos[name]!.release(version);
  await api('POST', `/api/v1/packages/${name}/sync`);
  await waitForSync(t, name);
}

beforeAll(async () => {
  t = await createTestApp();
  for (const name of ['acme/lib', 'acme/other']) {
    repos[name] = new GitFixture(name).release('1.0.0');
    await addSyncedPackage(t, name, repos[name].url);
  }
});

afterAll(async () => {
  await t.close();
  Object.values(repos).forEach((r) => r.remove());
});

describe('the change log for mirrors (metadata-changes-url)', () => {
  it('is advertised in packages.json as an absolute URL', async () => {
    const c = await customer({ 'acme/lib': '*' });
    const root = await t.app.inject({ url: '/packages.json', headers: c.auth });
    expect(root.json()['metadata-changes-url']).toBe('http://packyard.test/metadata/changes.json');
  });

  it('answers a missing or malformed since with 400, the error body and a timestamp', async () => {
    const c = await customer({ 'acme/lib': '*' });
    for (const query of ['', '?since=', '?since=abc', '?since=-5', '?since=1.5', '?since=0']) {
      const res = await t.app.inject({ url: `/metadata/changes.json${query}`, headers: c.auth });
      expect(res.statusCode, query).toBe(400);
      const body = res.json();
      expect(body).toMatchObject({ error: 'validation_error', code: 'VALIDATION_ERROR' });
      expect(body.message).toContain('since');
      expect(body.timestamp).toBeGreaterThan(sinceNow() - 100_000);
      expect(body.timestamp).toBeLessThanOrEqual(sinceNow());
    }
  });

  it('is authenticated like the Composer routes', async () => {
    const none = await t.app.inject({ url: `/metadata/changes.json?since=${sinceNow()}` });
    expect(none.statusCode).toBe(401);
    const c = await customer({ 'acme/lib': '*' });
    await api('POST', `/api/v1/customers/${c.id}/suspend`, {});
    const suspended = await t.app.inject({
      url: `/metadata/changes.json?since=${sinceNow()}`,
      headers: c.auth,
    });
    expect(suspended.statusCode).toBe(403);
  });

  it('lists updates of the packages a token may install, and only those', async () => {
    const libOnly = await customer({ 'acme/lib': '*' });
    const otherOnly = await customer({ 'acme/other': '*' });
    const since = sinceNow();
    expect((await changes(libOnly.auth, since)).actions).toEqual([]);
    await release('acme/lib', '1.1.0');
    await release('acme/other', '1.1.0');
    const seen = await changes(libOnly.auth, since);
    expect(names(seen.actions)).toContain('update acme/lib');
    expect(seen.actions.every((a) => a.package.startsWith('acme/lib'))).toBe(true);
    const nowSeconds = Date.now() / 1000;
    for (const a of seen.actions) expect(Math.abs(a.time - nowSeconds)).toBeLessThan(60);
    expect(seen.timestamp).toBeGreaterThanOrEqual(since);
    const theirs = await changes(otherOnly.auth, since);
    expect(names(theirs.actions)).toContain('update acme/other');
    expect(theirs.actions.some((a) => a.package.startsWith('acme/lib'))).toBe(false);
    // A yank changes the tagged versions' document.
    const beforeYank = sinceNow();
    await api('POST', '/api/v1/packages/acme/lib/yank/1.1.0');
    expect((await changes(libOnly.auth, beforeYank)).actions).toEqual([
      expect.objectContaining({ type: 'update', package: 'acme/lib' }),
    ]);
    expect((await changes(otherOnly.auth, beforeYank)).actions).toEqual([]);
  });

  it("makes a change of the token's own access a resync, and nobody else's", async () => {
    const mine = await customer({ 'acme/lib': '*' });
    const someoneElse = await customer({ 'acme/lib': '*' });
    const since = sinceNow();
    await api('POST', `/api/v1/customers/${mine.id}/packages`, {
      package: 'acme/other',
      constraint: '*',
    });
    const resync = await changes(mine.auth, since);
    expect(resync.actions).toEqual([{ type: 'resync', package: '*', time: expect.any(Number) }]);
    expect((await changes(someoneElse.auth, since)).actions).toEqual([]);
    const beforeRevoke = sinceNow();
    await api('DELETE', `/api/v1/customers/${mine.id}/packages/acme/other`);
    expect(names((await changes(mine.auth, beforeRevoke)).actions)).toEqual(['resync *']);
  });

  it('lists a new branch as ~dev, and makes a deleted package a resync without its name', async () => {
    repos['acme/gone'] = new GitFixture('acme/gone').release('1.0.0');
    await addSyncedPackage(t, 'acme/gone', repos['acme/gone'].url);
    const c = await customer({ 'acme/lib': '*', 'acme/gone': '*' });
    const since = sinceNow();
    repos['acme/lib']!.git('checkout', '-q', '-b', 'feature');
    repos['acme/lib']!.composerJson().commit('feature');
    await api('POST', '/api/v1/packages/acme/lib/sync');
    await waitForSync(t, 'acme/lib');
    expect(names((await changes(c.auth, since)).actions)).toContain('update acme/lib~dev');

    const beforeDelete = sinceNow();
    await api('DELETE', '/api/v1/packages/acme/gone');
    const other = await customer({ 'acme/other': '*' });
    for (const auth of [c.auth, other.auth]) {
      const answer = await changes(auth, beforeDelete);
      expect(answer.actions).toEqual([{ type: 'resync', package: '*', time: expect.any(Number) }]);
      expect(JSON.stringify(answer)).not.toContain('acme/gone');
    }
  });

  it('answers a since older than the kept events with a resync, as packagist.org does', async () => {
    const c = await customer({ 'acme/lib': '*' });
    const longAgo = (Date.now() - 40 * 86_400_000) * 10;
    const res = await changes(c.auth, longAgo);
    expect(res.actions).toEqual([{ type: 'resync', package: '*', time: expect.any(Number) }]);
    expect(res.timestamp).toBeGreaterThan(longAgo);
  });
});
