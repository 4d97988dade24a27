import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, waitFor } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import type { Ctx } from '../../context.js';
import { transact } from '../../unit-of-work.js';
import { listEvents } from './store.js';
import { EVENT_ID_RE } from './types.js';

let t: TestApp;
const ctx: Ctx = { tenantId: 'default', actor: { kind: 'root', id: null, level: 'owner' } };

beforeAll(async () => {
  t = await createTestApp({ EDITION: 'pro' });
});
afterAll(async () => t.close());

const feed = (after?: string) =>
  listEvents(t.runtime.services.deps.db, 'default', { after, limit: 500 });

describe('the event outbox', () => {
  it('writes an event with its change and none for a rolled-back unit', async () => {
    const { deps } = t.runtime.services;
    const before = await feed();
    const last = before.at(-1)?.id;
    await expect(
      transact(deps, ctx, async (tx) => {
        tx.emit('customer.created', { customer_id: 'rolled-back' });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await feed(last)).toEqual([]);

    await transact(deps, ctx, async (tx) => {
      tx.emit('customer.created', { customer_id: 'c1' });
      tx.emit('access.granted', { customer_id: 'c1', package: 'acme/one', constraint: '*' });
    });
    const after = await feed(last);
    expect(after.map((e) => [e.type, e.data])).toEqual([
      ['customer.created', { customer_id: 'c1' }],
      ['access.granted', { customer_id: 'c1', package: 'acme/one', constraint: '*' }],
    ]);
    for (const e of after) {
      expect(e.id).toMatch(EVENT_ID_RE);
      expect(e.created_at).toMatch(/Z$/);
    }
  });

  it('gives ids that sort in commit order, also for units running at once', async () => {
    const { deps } = t.runtime.services;
    const start = (await feed()).at(-1)?.id;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        transact(deps, ctx, async (tx) => {
          tx.emit('customer.deleted', { customer_id: `c${i}` });
        }),
      ),
    );
    const events = await feed(start);
    expect(events).toHaveLength(20);
    const ids = events.map((e) => e.id);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(20);
    // Paging with `after` and a type filter.
    const firstFive = await listEvents(deps.db, 'default', { after: start, limit: 5 });
    expect(firstFive.map((e) => e.id)).toEqual(ids.slice(0, 5));
    const none = await listEvents(deps.db, 'default', {
      after: start,
      types: ['package.created'],
      limit: 5,
    });
    expect(none).toEqual([]);
  });

  it('deletes events older than EVENT_RETENTION_DAYS in the cleanup task', async () => {
    const old = new Date(Date.now() - 31 * 86_400_000).toISOString();
    await t.db
      .insertInto('events')
      .values({
        tenant_id: 'default',
        id: 'evt_0000000000000000',
        type: 'customer.created',
        package: null,
        data: '{}',
        created_at: old,
      })
      .execute();
    expect((await feed()).map((e) => e.id)).toContain('evt_0000000000000000');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/tasks/cleanup',
      headers: t.admin,
    });
    expect(res.statusCode, res.body).toBe(202);
    const task = await waitFor(
      () =>
        t.app.inject({ url: `/api/v1/tasks/${res.json<{ id: string }>().id}`, headers: t.admin }),
      (r) => r.json<{ status: string }>().status === 'done',
    );
    expect(task.json<{ result: { old_events: number } }>().result.old_events).toBe(1);
    const ids = (await feed()).map((e) => e.id);
    expect(ids).not.toContain('evt_0000000000000000');
    expect(ids.length).toBeGreaterThan(0);
  });
});
