import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/helpers.js';
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
});
