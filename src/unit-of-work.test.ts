import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, createTestApp, graphql } from '../test/helpers.js';
import type { TestApp } from '../test/helpers.js';
import { adminApi, createCustomer, insertPackageRow } from '../test/factories.js';
import type { Ctx } from './context.js';
import type { DomainEvent } from './infra/events.js';
import { transact } from './unit-of-work.js';
import { CacheGeneration } from './infra/cache-generation.js';

let t: TestApp;
const events: DomainEvent[] = [];
const ctx: Ctx = { tenantId: 'default', actor: { kind: 'root', id: null, level: 'owner' } };

beforeAll(async () => {
  t = await createTestApp({ EDITION: 'enterprise' });
  t.runtime.services.deps.events.subscribe((e) => events.push(e));
  await insertPackageRow(t, 'acme/one');
  await insertPackageRow(t, 'acme/two');
});
afterAll(async () => t.close());

const activity = (customerId: string): DomainEvent => ({
  type: 'customer.activity',
  tenantId: 'default',
  customerId,
  activity: 'STATUS_CHANGED',
  package: null,
  version: null,
  at: new Date().toISOString(),
});

const audits = (action: string) =>
  t.db.selectFrom('audit_log').selectAll().where('action', '=', action).execute();

describe('unit of work', () => {
  it('runs no effect of a rolled-back unit: no event, no audit entry, no cache move', async () => {
    const { deps } = t.runtime.services;
    const generation = deps.generations.current('default');
    const stamp = await deps.generations.stampMs('default');
    let ran = false;
    await expect(
      transact(deps, ctx, async (tx) => {
        await tx.audit({ action: 'test.rolled_back', target: { type: 'test', id: 'x' } });
        tx.publish(activity('rolled-back'));
        tx.accessChanged();
        tx.afterCommit(() => {
          ran = true;
        });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(events.filter((e) => 'customerId' in e && e.customerId === 'rolled-back')).toEqual([]);
    expect(await audits('test.rolled_back')).toEqual([]);
    expect(deps.generations.current('default')).toBe(generation);
    expect(await deps.generations.stampMs('default')).toBe(stamp);
    expect(ran).toBe(false);
  });

  it('runs the effects of a committed unit after its commit, the stamp once', async () => {
    const { deps } = t.runtime.services;
    const generation = deps.generations.current('default');
    const stamp = await deps.generations.stampMs('default');
    let seenInside = -1;
    await transact(deps, ctx, async (tx) => {
      await tx.audit({ action: 'test.committed', target: { type: 'test', id: 'y' } });
      tx.publish(activity('committed'));
      tx.accessChanged();
      tx.accessChanged();
      // Nothing has happened yet inside the transaction.
      seenInside = events.filter((e) => 'customerId' in e && e.customerId === 'committed').length;
    });
    expect(seenInside).toBe(0);
    expect(events.filter((e) => 'customerId' in e && e.customerId === 'committed')).toHaveLength(1);
    expect(await audits('test.committed')).toHaveLength(1);
    expect(deps.generations.current('default')).toBe(generation + 1);
    expect(await deps.generations.stampMs('default')).toBeGreaterThan(stamp);
  });

  it('moves the stamp with the commit, so a process that dies before its effects leaves no stale node', async () => {
    const { deps } = t.runtime.services;
    const otherNode = new CacheGeneration(deps.db, 60_000);
    await otherNode.poll();
    const before = otherNode.current('default');
    const announce = deps.generations.announce.bind(deps.generations);
    // This process "dies" right after the commit: nothing after it runs.
    deps.generations.announce = () => Promise.resolve();
    try {
      await transact(deps, ctx, async (tx) => {
        tx.accessChanged();
        await Promise.resolve();
      });
    } finally {
      deps.generations.announce = announce;
    }
    await otherNode.poll();
    expect(otherNode.current('default')).toBe(before + 1);
  });

  it('joins the unit it is called within: effects wait for the outer commit', async () => {
    const { deps } = t.runtime.services;
    await expect(
      transact(deps, ctx, async (outer) => {
        await transact(deps, ctx, async (inner) => inner.publish(activity('inner')), {
          within: outer.db,
        });
        throw new Error('outer fails');
      }),
    ).rejects.toThrow('outer fails');
    expect(events.filter((e) => 'customerId' in e && e.customerId === 'inner')).toEqual([]);
  });

  it('commits nothing of a GraphQL grantPackageAccess that fails half-way', async () => {
    const api = adminApi(t);
    const c = await createCustomer(t, 'Halfway');
    await api('POST', `/api/v1/customers/${c.id}/packages`, { package: 'acme/two' });
    const token = await api('POST', `/api/v1/customers/${c.id}/tokens`, { name: 't' });
    const auth = { authorization: basicAuth(token.plain_token as string) };
    const root = async () =>
      (await t.app.inject({ url: '/packages.json', headers: auth })).json()['available-packages'];
    expect(await root()).toEqual(['acme/two']);
    const seen = events.length;
    const answer = await graphql(
      t,
      `
        mutation ($id: ID!) {
          grantPackageAccess(
            customerId: $id
            packages: [{ package: "acme/one" }, { package: "acme/missing" }]
          ) {
            id
          }
        }
      `,
      { id: c.id },
    );
    expect(answer.errors?.[0]?.extensions.code).toBe('VALIDATION_ERROR');
    // One unit: the first grant rolled back with the second, and no event was published.
    expect(await root()).toEqual(['acme/two']);
    const access = await api('GET', `/api/v1/customers/${c.id}/packages`);
    expect((access.data as { package: string }[]).map((a) => a.package)).toEqual(['acme/two']);
    const granted = events
      .slice(seen)
      .filter((e) => e.type === 'customer.activity' && e.customerId === c.id);
    expect(granted).toEqual([]);
  });
});
