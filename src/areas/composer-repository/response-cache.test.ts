import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, createTestApp, waitFor } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import {
  adminApi,
  addSyncedPackage,
  createCustomer,
  waitForSync,
} from '../../../test/factories.js';
import { buildApp } from '../../app.js';
import { openRuntime } from '../../runtime.js';

let t: TestApp;
let repo: GitFixture;

const api = (method: string, url: string, payload?: unknown) => adminApi(t)(method, url, payload);

async function customer(token: Record<string, unknown> = {}) {
  const c = await createCustomer(t, `C${Math.random().toString(36).slice(2, 8)}`);
  await api('POST', `/api/v1/customers/${c.id}/packages`, {
    package: 'acme/cached',
    constraint: '*',
  });
  const created = await api('POST', `/api/v1/customers/${c.id}/tokens`, { name: 't', ...token });
  return {
    id: c.id,
    tokenId: created.token.id as string,
    auth: { authorization: basicAuth(created.plain_token) },
  };
}

const p2 = (auth: Record<string, string>, app = t.app) =>
  app.inject({ url: '/p2/acme/cached.json', headers: auth });
const versions = (res: { json(): { packages: Record<string, { version: string }[]> } }) =>
  (res.json().packages['acme/cached'] ?? []).map((v) => v.version);

beforeAll(async () => {
  t = await createTestApp({ JWT_SECRET: 'response-cache-jwt-secret-0123456789' });
  repo = new GitFixture('acme/cached');
  repo.release('1.0.0');
  await addSyncedPackage(t, 'acme/cached', repo.url);
});
afterAll(async () => {
  await t.close();
  repo.remove();
});

describe('cached Composer answers never outlive what they depend on', () => {
  it('stops serving a revoked token at once', async () => {
    const c = await customer();
    expect((await p2(c.auth)).statusCode).toBe(200);
    expect((await p2(c.auth)).statusCode).toBe(200);
    await api('DELETE', `/api/v1/customers/${c.id}/tokens/${c.tokenId}`);
    expect((await p2(c.auth)).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/packages.json', headers: c.auth })).statusCode).toBe(401);
  });

  it('follows suspension, yanking and a sync by the worker', async () => {
    const c = await customer();
    expect(versions(await p2(c.auth))).toEqual(['1.0.0']);
    await api('POST', '/api/v1/packages/acme/cached/yank/1.0.0');
    expect(versions(await p2(c.auth))).toEqual([]);
    await api('POST', '/api/v1/packages/acme/cached/unyank/1.0.0');
    repo.release('1.1.0');
    await api('POST', '/api/v1/packages/acme/cached/sync');
    await waitForSync(t, 'acme/cached');
    expect(versions(await p2(c.auth))).toEqual(['1.1.0', '1.0.0']);
    await api('POST', `/api/v1/customers/${c.id}/suspend`);
    expect((await p2(c.auth)).statusCode).toBe(403);
  });

  it('stops serving a token when it expires', async () => {
    const c = await customer({ expires_at: new Date(Date.now() + 1500).toISOString() });
    expect((await p2(c.auth)).statusCode).toBe(200);
    await waitFor(
      () => p2(c.auth),
      (res) => res.statusCode === 401,
      { timeoutMs: 10_000 },
    );
  });

  it('hears about a change made by another node on the same database', async () => {
    const c = await customer();
    const other = await openRuntime(t.config);
    const otherApp = await buildApp({ services: other.services });
    try {
      expect((await p2(c.auth)).statusCode).toBe(200);
      const revoked = await otherApp.inject({
        method: 'DELETE',
        url: `/api/v1/customers/${c.id}/tokens/${c.tokenId}`,
        headers: t.admin,
      });
      expect(revoked.statusCode).toBe(204);
      await waitFor(
        () => p2(c.auth),
        (res) => res.statusCode === 401,
        { timeoutMs: 5_000 },
      );
    } finally {
      await otherApp.close();
      await other.close();
    }
  });
});

describe('answers are cached by audience, not by token', () => {
  const grant = async (id: string, name: string, constraint: string) =>
    api('POST', `/api/v1/customers/${id}/packages`, { package: name, constraint });
  const tokenOf = async (id: string, body: Record<string, unknown> = {}) => ({
    authorization: basicAuth(
      (await api('POST', `/api/v1/customers/${id}/tokens`, { name: 't', ...body })).plain_token,
    ),
  });
  const plan = async (constraint: string) => {
    const c = await createCustomer(t, `P${Math.random().toString(36).slice(2, 8)}`);
    await grant(c.id, 'acme/shared', constraint);
    return c.id;
  };

  it('shares one answer between the tokens and customers that see the same', async () => {
    const pkg = new GitFixture('acme/shared');
    pkg.release('1.0.0').release('2.0.0');
    try {
      await addSyncedPackage(t, 'acme/shared', pkg.url);
      const url = '/p2/acme/shared.json';
      const shown = async (auth: Record<string, string>) => {
        const res = await t.app.inject({ url, headers: auth });
        expect(res.statusCode, res.body).toBe(200);
        return (res.json().packages['acme/shared'] as { version: string }[]).map((v) => v.version);
      };
      const first = await tokenOf(await plan('^1.0'));
      expect(await shown(first)).toEqual(['1.0.0']);
      const before = t.runtime.services.composer.responses.size();

      // Ten more customers on the same plan, two tokens each: no new answer is held.
      for (let i = 0; i < 10; i++) {
        const id = await plan('^1.0');
        for (const auth of [await tokenOf(id), await tokenOf(id)]) {
          expect(await shown(auth)).toEqual(['1.0.0']);
        }
      }
      const after = t.runtime.services.composer.responses.size();
      expect(after.documents).toBe(before.documents);
      expect(after.audiences).toBe(before.audiences);
      expect(after.tokens).toBe(before.tokens + 20);

      // Another constraint, package scopes that exclude the package, and a frozen customer each
      // get what they may see, whatever the shared audience holds.
      expect(await shown(await tokenOf(await plan('^2.0')))).toEqual(['2.0.0']);
      const scoped = await tokenOf(await plan('^1.0'), { package_scopes: ['other/*'] });
      expect((await t.app.inject({ url, headers: scoped })).statusCode).toBe(403);
      const frozenId = await plan('*');
      const frozen = await tokenOf(frozenId);
      expect(await shown(frozen)).toEqual(['2.0.0', '1.0.0']);
      pkg.release('3.0.0');
      await api('POST', `/api/v1/customers/${frozenId}/freeze`);
      await api('POST', '/api/v1/packages/acme/shared/sync');
      await waitForSync(t, 'acme/shared');
      expect(await shown(frozen)).toEqual(['2.0.0', '1.0.0']);
      expect(await shown(await tokenOf(await plan('*')))).toEqual(['3.0.0', '2.0.0', '1.0.0']);
      expect(await shown(first)).toEqual(['1.0.0']);
    } finally {
      pkg.remove();
    }
  });
});

describe('audiences of customers granted through collections', () => {
  it('see what their collections and direct grants hold together, and follow membership', async () => {
    const slug = `plan-${Math.random().toString(36).slice(2, 8)}`;
    await api('POST', '/api/v1/collections', { name: slug, slug, packages: ['acme/cached'] });
    repo.release('2.0.0');
    await api('POST', '/api/v1/packages/acme/cached/sync');
    await waitForSync(t, 'acme/cached');
    const viaCollection = async (constraint: string, direct?: string) => {
      const c = await createCustomer(t, `K${Math.random().toString(36).slice(2, 8)}`);
      await api('POST', `/api/v1/customers/${c.id}/collections`, { collection: slug, constraint });
      if (direct) {
        await api('POST', `/api/v1/customers/${c.id}/packages`, {
          package: 'acme/cached',
          constraint: direct,
        });
      }
      const created = await api('POST', `/api/v1/customers/${c.id}/tokens`, { name: 't' });
      return { authorization: basicAuth(created.plain_token) };
    };
    const one = await viaCollection('^1.0');
    const two = await viaCollection('^2.0');
    const both = await viaCollection('^2.0', '^1.0');
    // Earlier tests released other 1.x versions of the package.
    const ones = versions(await p2(one));
    expect(ones).toContain('1.0.0');
    expect(ones.every((v) => v.startsWith('1.'))).toBe(true);
    expect(versions(await p2(two))).toEqual(['2.0.0']);
    expect(versions(await p2(both)).sort()).toEqual([...ones, '2.0.0'].sort());
    // A second customer on the same collection and constraint shares the first one's answer.
    const before = t.runtime.services.composer.responses.size();
    expect(versions(await p2(await viaCollection('^1.0')))).toEqual(ones);
    expect(t.runtime.services.composer.responses.size().documents).toBe(before.documents);
    // Out of the collection, the package is gone for those who had it only through it.
    await api('PATCH', `/api/v1/collections/${slug}`, { packages: [] });
    expect((await p2(one)).statusCode).toBe(403);
    expect(versions(await p2(both))).toEqual(ones);
  });
});

describe('customer JWTs', () => {
  it('get the audience of their own customer', async () => {
    const viaJwt = async (constraint: string) => {
      const c = await createCustomer(t, `J${Math.random().toString(36).slice(2, 8)}`);
      await api('POST', `/api/v1/customers/${c.id}/packages`, {
        package: 'acme/cached',
        constraint,
      });
      const issued = await api('POST', `/api/v1/customers/${c.id}/jwt`);
      return { authorization: `Bearer ${issued.token as string}` };
    };
    const all = await viaJwt('*');
    const first = await p2(all);
    expect(first.statusCode, first.body).toBe(200);
    const everything = versions(first);
    expect(everything.length).toBeGreaterThan(1);
    // Another customer's JWT, with a narrower grant, never gets the first one's answer.
    const narrow = await p2(await viaJwt('1.0.0'));
    expect(narrow.statusCode, narrow.body).toBe(200);
    expect(versions(narrow)).toEqual(['1.0.0']);
    expect(versions(await p2(all))).toEqual(everything);
  });
});
