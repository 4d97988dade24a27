import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, waitFor } from '../../test/helpers.js';
import type { TestApp } from '../../test/helpers.js';
import type { Ctx } from '../context.js';
import { transact } from '../unit-of-work.js';
import { LiveEvents, liveEvents } from '../areas/events/live.js';
import type { EventDto } from '../areas/events/types.js';
import { outboxStream } from './streams.js';

let t: TestApp;
const ctx: Ctx = { tenantId: 'default', actor: { kind: 'root', id: null, level: 'owner' } };

beforeAll(async () => {
  t = await createTestApp({ EDITION: 'pro' });
});
afterAll(async () => t.close());

/** Reads an iterator into an array as values arrive. */
function collect(iterator: AsyncIterableIterator<string>): string[] {
  const got: string[] = [];
  void (async () => {
    for await (const value of iterator) got.push(value);
  })();
  return got;
}

const tokenOf = (e: EventDto) => (e.type === 'token.created' ? String(e.data.token_id) : null);

describe('outbox subscriptions', () => {
  it('share one read of the events table per notice among a tenant’s subscribers', async () => {
    const { deps } = t.runtime.services;
    const reads = vi.spyOn(LiveEvents.prototype, 'readAfter');
    const streams = await Promise.all([1, 2, 3].map(() => outboxStream(deps, 'default', tokenOf)));
    const feeds = streams.map(collect);
    const emit = (tokenId: string) =>
      transact(deps, ctx, async (tx) => {
        tx.emit('token.created', { customer_id: 'c1', token_id: tokenId });
      });
    const all = (n: number) =>
      waitFor(
        async () => feeds.every((f) => f.length >= n),
        (ok) => ok,
        { timeoutMs: 10_000, intervalMs: 10 },
      );

    await emit('t1');
    await all(1);
    reads.mockClear();
    await emit('t2');
    await all(2);
    await emit('t3');
    await all(3);
    expect(feeds).toEqual([
      ['t1', 't2', 't3'],
      ['t1', 't2', 't3'],
      ['t1', 't2', 't3'],
    ]);
    // Two notices, two reads: not one per subscriber.
    expect(reads).toHaveBeenCalledTimes(2);

    for (const s of streams) await s.return?.();
    reads.mockRestore();
    // With no subscriber left, a notice reads nothing.
    const idle = vi.spyOn(LiveEvents.prototype, 'readAfter');
    await emit('t4');
    liveEvents(deps).notice('default', null);
    expect(idle).not.toHaveBeenCalled();
    idle.mockRestore();
  });
});
