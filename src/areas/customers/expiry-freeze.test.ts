import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unguarded } from '../auth/authorize.js';
import { basicAuth, createTestApp, graphqlBody } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import {
  addSyncedPackage,
  adminApi,
  createCustomer,
  waitForSync,
} from '../../../test/factories.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import { transact } from '../../unit-of-work.js';
import type { DomainEvent } from '../../infra/events.js';

let t: TestApp;
let api: ReturnType<typeof adminApi>;
let lib: GitFixture;
let tool: GitFixture;
const events: DomainEvent[] = [];

beforeAll(async () => {
  t = await createTestApp();
  api = adminApi(t);
  t.runtime.services.deps.events.subscribe((e) => events.push(e));
  lib = new GitFixture('acme/lib');
  lib.release('1.0.0').release('1.1.0').release('2.0.0');
  tool = new GitFixture('acme/tool');
  tool.release('0.1.0').release('0.2.0');
  await addSyncedPackage(t, 'acme/lib', lib.url);
  await addSyncedPackage(t, 'acme/tool', tool.url);
}, 60_000);
afterAll(async () => {
  await t.close();
  lib.remove();
  tool.remove();
});

const db = () => t.db;

/** A customer whose access date passed without anyone reading it since (straight in the table). */
async function overdueCustomer(status: 'ACTIVE' | 'FROZEN' = 'ACTIVE') {
  const c = await createCustomer(t, `Due${Math.random().toString(36).slice(2, 8)}`);
  await db()
    .updateTable('customers')
    .set({ access_expires_at: new Date(Date.now() - 60_000).toISOString(), status })
    .where('id', '=', c.id)
    .execute();
  return c;
}

const expiryAudits = (id: string) =>
  db()
    .selectFrom('audit_log')
    .selectAll()
    .where('action', '=', 'customer.expire')
    .where('target_id', '=', id)
    .execute();

const statusEvents = (id: string) =>
  events.filter(
    (e) => e.type === 'customer.activity' && e.customerId === id && e.activity === 'STATUS_CHANGED',
  );

async function listIds(query: string) {
  const res = await api('GET', `/api/v1/customers?per_page=100&${query}`);
  return { ids: (res.data as { id: string }[]).map((c) => c.id), total: res.pagination.total };
}

const gql = (query: string) => graphqlBody(t, query);

describe('time-based expiry', () => {
  it('lists an overdue customer as EXPIRED at once, with right totals, in REST and GraphQL', async () => {
    const before = await listIds('status=EXPIRED');
    const c = await overdueCustomer();
    const generation = t.runtime.services.deps.generations.current('default');

    const expired = await listIds('status=EXPIRED');
    expect(expired.ids).toContain(c.id);
    expect(expired.total).toBe(before.total + 1);
    expect((await listIds('status=ACTIVE')).ids).not.toContain(c.id);
    expect(t.runtime.services.deps.generations.current('default')).toBeGreaterThan(generation);

    const frozen = await overdueCustomer('FROZEN');
    const answer = await gql(
      `{ customers(filter: { status: EXPIRED }, first: 100) { edges { node { id status } } } }`,
    );
    const nodes = (
      answer.data!.customers as { edges: { node: { id: string; status: string } }[] }
    ).edges.map((e) => e.node);
    expect(nodes).toContainEqual({ id: frozen.id, status: 'EXPIRED' });
    const active = await gql(
      `{ customers(filter: { status: FROZEN }, first: 100) { edges { node { id } } } }`,
    );
    expect(JSON.stringify(active.data)).not.toContain(frozen.id);

    const [audit] = await expiryAudits(frozen.id);
    expect(audit).toMatchObject({ actor_kind: 'system', actor_id: null, target_type: 'customer' });
    expect(JSON.parse(audit!.summary)).toMatchObject({
      from: 'FROZEN',
      to: 'EXPIRED',
      reason: 'access expired',
    });
    expect(await api('GET', `/api/v1/customers/${c.id}`)).toMatchObject({
      status: 'EXPIRED',
      status_reason: 'access expired',
    });
  });

  it('records one audit entry and one event when requests race', async () => {
    const c = await overdueCustomer();
    const answers = await Promise.all([
      t.app.inject({ url: `/api/v1/customers/${c.id}`, headers: t.admin }),
      t.app.inject({ url: `/api/v1/customers/${c.id}`, headers: t.admin }),
      t.app.inject({ url: '/api/v1/customers?status=ACTIVE', headers: t.admin }),
      t.app.inject({ url: '/api/v1/customers?per_page=100', headers: t.admin }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    expect(answers[0].json().status).toBe('EXPIRED');
    expect(answers[1].json().status).toBe('EXPIRED');
    await api('GET', `/api/v1/customers/${c.id}`);
    expect(await expiryAudits(c.id)).toHaveLength(1);
    expect(statusEvents(c.id)).toHaveLength(1);
  });

  it('expires inside a caller transaction (the payment webhook) without waiting on it', async () => {
    const c = await overdueCustomer('FROZEN');
    const ctx = { tenantId: 'default', actor: { kind: 'webhook', id: 'payment' } } as const;
    // The payment webhook's transaction is a unit of work (unit-of-work.ts), as in BillingService.
    const outcome = await transact(t.runtime.services.deps, ctx, async ({ db: trx }) => {
      try {
        await unguarded(t.runtime.services.customers, 'billing adapter').paymentExpire(
          trx,
          ctx,
          c.id,
          'unpaid',
        );
        return 'changed';
      } catch (err) {
        return (err as Error).message;
      }
    });
    expect(outcome).toBe('Customer is already EXPIRED');
    expect(await expiryAudits(c.id)).toHaveLength(1);
    expect(statusEvents(c.id)).toHaveLength(1);
  });

  it('answers 403 on the Composer surface and records the expiry once', async () => {
    const c = await overdueCustomer();
    await db()
      .updateTable('customers')
      .set({ access_expires_at: new Date(Date.now() + 60_000).toISOString() })
      .where('id', '=', c.id)
      .execute();
    await api('POST', `/api/v1/customers/${c.id}/packages`, {
      package: 'acme/lib',
      constraint: '*',
    });
    const token = await api('POST', `/api/v1/customers/${c.id}/tokens`, { name: 't' });
    const auth = { authorization: basicAuth(token.plain_token) };
    await db()
      .updateTable('customers')
      .set({ access_expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', c.id)
      .execute();
    const answers = await Promise.all([
      t.app.inject({ url: '/packages.json', headers: auth }),
      t.app.inject({ url: '/p2/acme/lib.json', headers: auth }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([403, 403]);
    expect((await api('GET', `/api/v1/customers/${c.id}`)).status).toBe('EXPIRED');
    expect(await expiryAudits(c.id)).toHaveLength(1);
    expect(statusEvents(c.id)).toHaveLength(1);
  });
});

describe('freeze without a list of versions', () => {
  const versionsOf = async (auth: Record<string, string>, name: string, suffix = '') => {
    const res = await t.app.inject({ url: `/p2/${name}${suffix}.json`, headers: auth });
    expect(res.statusCode).toBe(200);
    return (res.json().packages[name] as { version: string }[]).map((v) => v.version);
  };

  it('freezes every version visible now, so a later release stays invisible', async () => {
    const c = await createCustomer(t, 'Freezer');
    await api('POST', `/api/v1/customers/${c.id}/packages`, {
      package: 'acme/lib',
      constraint: '^1.0',
    });
    await api('POST', '/api/v1/collections', {
      name: 'Tools',
      slug: 'tools',
      packages: ['acme/tool'],
    });
    await api('POST', `/api/v1/customers/${c.id}/collections`, { collection: 'tools' });
    const token = await api('POST', `/api/v1/customers/${c.id}/tokens`, { name: 't' });
    const auth = { authorization: basicAuth(token.plain_token) };
    await api('POST', '/api/v1/packages/acme/tool/yank/0.1.0');

    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/customers/${c.id}/freeze`,
      headers: t.admin,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'FROZEN' });
    expect(res.json().frozen_versions).toEqual([
      { package: 'acme/lib', version: '1.0.0' },
      { package: 'acme/lib', version: '1.1.0' },
      { package: 'acme/tool', version: '0.2.0' },
    ]);
    const audit = await db()
      .selectFrom('audit_log')
      .select('summary')
      .where('action', '=', 'customer.freeze')
      .where('target_id', '=', c.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.summary)).toMatchObject({ all_visible: true, count: 3 });

    lib.release('1.2.0');
    await api('POST', '/api/v1/packages/acme/lib/sync');
    const synced = await waitForSync(t, 'acme/lib');
    expect(synced.versions.map((v: { version: string }) => v.version)).toContain('1.2.0');
    expect(await versionsOf(auth, 'acme/lib')).toEqual(['1.1.0', '1.0.0']);
    expect(await versionsOf(auth, 'acme/tool')).toEqual(['0.2.0']);
    expect(await versionsOf(auth, 'acme/tool', '~dev')).toEqual([]);

    // Already FROZEN: the frozen set stays; `{}` and an empty list mean the same as no body.
    for (const payload of [{}, { versions: [] }]) {
      const again = await t.app.inject({
        method: 'POST',
        url: `/api/v1/customers/${c.id}/freeze`,
        headers: t.admin,
        payload,
      });
      expect(again.statusCode).toBe(200);
      expect(again.json().frozen_versions).toHaveLength(3);
    }
    await api('POST', '/api/v1/packages/acme/tool/unyank/0.1.0');
    expect(await versionsOf(auth, 'acme/lib')).toEqual(['1.1.0', '1.0.0']);

    // An explicit list still replaces the set.
    const explicit = await api('POST', `/api/v1/customers/${c.id}/freeze`, {
      versions: [{ package: 'acme/lib', version: '1.2.0' }],
    });
    expect(explicit.frozen_versions).toEqual([{ package: 'acme/lib', version: '1.2.0' }]);
  });

  it('accepts freezeCustomer without versions in GraphQL', async () => {
    const c = await createCustomer(t, 'GqlFreezer');
    await api('POST', `/api/v1/customers/${c.id}/packages`, {
      package: 'acme/lib',
      constraint: '~1.1.0',
    });
    const answer = await gql(`mutation { freezeCustomer(id: "${c.id}") { id status } }`);
    expect(answer.errors).toBeUndefined();
    expect(answer.data!.freezeCustomer).toEqual({ id: c.id, status: 'FROZEN' });
    const frozen = await t.runtime.services.customers.frozenVersions(
      { tenantId: 'default', actor: { kind: 'system', id: null } },
      c.id,
    );
    expect(frozen).toEqual([{ package: 'acme/lib', version: '1.1.0' }]);
  });
});
