import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unguarded } from '../auth/authorize.js';
import { createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { adminApi, createCustomer } from '../../../test/factories.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import { addSyncedPackage } from '../../../test/factories.js';

let t: TestApp;
let repo: GitFixture;
const api = (method: string, url: string, payload?: unknown) => adminApi(t)(method, url, payload);

interface Entry {
  action: string;
  actor: { kind: string; id: string | null };
  target: { type: string; id: string };
  summary: Record<string, unknown>;
  ip: string | null;
  user_agent: string | null;
}

const audit = async (query = '') =>
  (await api('GET', `/api/v1/audit${query}`)) as { data: Entry[]; pagination: { total: number } };

beforeAll(async () => {
  t = await createTestApp({ EDITION: 'pro' });
  repo = new GitFixture('acme/audited');
  repo.release('1.0.0');
  await addSyncedPackage(t, 'acme/audited', repo.url);
});
afterAll(async () => {
  await t.close();
  repo.remove();
});

describe('audit log', () => {
  it('records every mutation with actor, target, summary, IP and user agent', async () => {
    const c = await createCustomer(t, 'Audited');
    await api('PATCH', `/api/v1/customers/${c.id}`, { name: 'Audited Inc' });
    await api('POST', `/api/v1/customers/${c.id}/packages`, {
      package: 'acme/audited',
      constraint: '^1.0',
    });
    const token = await api('POST', `/api/v1/customers/${c.id}/tokens`, {
      name: 'ci',
      scope: 'download',
    });
    await api('POST', `/api/v1/customers/${c.id}/tokens/${token.token.id}/rotate`);
    await api('POST', '/api/v1/collections', {
      name: 'All',
      slug: 'all',
      packages: ['acme/audited'],
    });
    await api('POST', `/api/v1/customers/${c.id}/collections`, {
      collection: 'all',
      constraint: '*',
    });
    await api('POST', `/api/v1/customers/${c.id}/suspend`, { reason: 'unpaid' });
    await api('POST', `/api/v1/customers/${c.id}/reactivate`);
    await api('DELETE', `/api/v1/customers/${c.id}/packages/acme/audited`);
    const team = await api('POST', '/api/v1/team/tokens', { name: 'ops', level: 'viewer' });
    await api('DELETE', `/api/v1/team/tokens/${team.token.id}`);
    await api('DELETE', '/api/v1/collections/all');
    await api('POST', '/api/v1/packages/acme/audited/yank/1.0.0');
    await api('POST', '/api/v1/packages/acme/audited/sync');

    const { data } = await audit('?per_page=100');
    const actions = data.map((e) => e.action).reverse();
    expect(actions).toEqual(
      expect.arrayContaining([
        'customer.create',
        'customer.update',
        'access.grant',
        'token.create',
        'token.rotate',
        'collection.create',
        'access.grant_collection',
        'customer.suspend',
        'customer.reactivate',
        'access.revoke',
        'team_token.create',
        'team_token.revoke',
        'collection.delete',
        'package.add',
        'package.yank',
        'task.queue',
      ]),
    );
    const suspend = data.find((e) => e.action === 'customer.suspend');
    expect(suspend).toMatchObject({
      actor: { kind: 'root', id: null },
      target: { type: 'customer', id: c.id },
      summary: { from: 'ACTIVE', to: 'SUSPENDED', reason: 'unpaid' },
      ip: '127.0.0.1',
      user_agent: 'lightMyRequest',
    });
    expect(JSON.stringify(data)).not.toContain(token.plain_token);
  });

  it('writes nothing for a mutation that fails', async () => {
    await api('POST', '/api/v1/customers', { name: 'X', email: 'x@x.test', external_id: 'once' });
    const before = (await audit()).pagination.total;
    const dup = await t.app.inject({
      method: 'POST',
      url: '/api/v1/customers',
      headers: t.admin,
      payload: { name: 'Y', email: 'y@y.test', external_id: 'once' },
    });
    expect(dup.statusCode).toBe(409);
    expect((await audit()).pagination.total).toBe(before);
  });

  it('filters by actor, action prefix, target and time, and pages', async () => {
    const c = await createCustomer(t, 'Filtered');
    await api('POST', `/api/v1/customers/${c.id}/suspend`);
    const byTarget = await audit(`?target=${c.id}`);
    expect(byTarget.data.map((e) => e.action)).toEqual(['customer.suspend', 'customer.create']);
    const prefix = await audit('?action=customer.&per_page=1');
    expect(prefix.data).toHaveLength(1);
    expect(prefix.pagination.total).toBeGreaterThan(1);
    expect((await audit('?actor=root')).pagination.total).toBeGreaterThan(0);
    expect((await audit('?actor=someone-else')).pagination.total).toBe(0);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await audit(`?from=${encodeURIComponent(future)}`)).pagination.total).toBe(0);
    const bad = await t.app.inject({ url: '/api/v1/audit?from=yesterday', headers: t.admin });
    expect(bad.statusCode).toBe(400);
  });

  it('removes entries past AUDIT_LOG_RETENTION_DAYS in the cleanup task', async () => {
    const old = new Date(Date.now() - 91 * 86_400_000).toISOString();
    await t.db
      .insertInto('audit_log')
      .values({
        id: 'old-entry',
        tenant_id: 'default',
        actor_kind: 'root',
        actor_id: null,
        action: 'customer.create',
        target_type: 'customer',
        target_id: 'gone',
        summary: '{}',
        ip: null,
        user_agent: null,
        created_at: old,
      })
      .execute();
    expect((await audit('?target=gone')).pagination.total).toBe(1);
    expect(
      await unguarded(t.runtime.services.audit, 'background work').applyRetention('default'),
    ).toBe(1);
    expect((await audit('?target=gone')).pagination.total).toBe(0);
  });

  it('is not available in the community edition', async () => {
    const community = await createTestApp({ EDITION: 'community' });
    try {
      const res = await community.app.inject({ url: '/api/v1/audit', headers: community.admin });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('FEATURE_NOT_AVAILABLE');
    } finally {
      await community.close();
    }
  });
});
