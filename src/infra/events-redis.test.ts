import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { openRuntime } from '../runtime.js';
import type { Runtime } from '../runtime.js';
import type { Ctx } from '../context.js';
import { TEST_REDIS_URL as REDIS_URL, createTestApp } from '../../test/helpers.js';
import type { TestApp } from '../../test/helpers.js';
import { MemoryEventBus } from './events.js';
import type { DomainEvent } from './events.js';
import { CacheGeneration } from './cache-generation.js';
import { RedisEventBus, createEventBus, parseEnvelope, parseNotice } from './events-redis.js';
import { ProcessPeers } from './peers.js';
import type { Notice } from './peers.js';
import { createLogger } from './logger.js';

const runPrefix = `packyard-test-${crypto.randomBytes(6).toString('hex')}:`;
let seq = 0;
const uniquePrefix = (): string => `${runPrefix}${++seq}:`;

const synced = (pkg: string): DomainEvent => ({
  type: 'package.synced',
  tenantId: 'default',
  package: pkg,
  status: 'ok',
  versionsAdded: ['1.0.0'],
  versionsRemoved: [],
  error: null,
  at: '2026-11-22T00:00:00.000Z',
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(10);
  }
}

const opened: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});

function bus(prefix: string, onError?: (err: Error) => void): RedisEventBus {
  const b = new RedisEventBus({ url: REDIS_URL, prefix, onError });
  opened.push(b);
  return b;
}

function rawClient(): Redis {
  const client = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  opened.push({ close: () => client.quit() });
  return client;
}

describe('parseEnvelope', () => {
  it('accepts a tagged known event and rejects anything else', () => {
    const event = synced('acme/a');
    expect(parseEnvelope(JSON.stringify({ origin: 'x', event }))).toEqual({ origin: 'x', event });
    for (const raw of [
      'not json',
      'null',
      '[]',
      '42',
      JSON.stringify({ event }),
      JSON.stringify({ origin: 'x' }),
      JSON.stringify({ origin: 'x', event: { ...event, type: 'package.deleted' } }),
      JSON.stringify({ origin: 'x', event: { ...event, tenantId: 7 } }),
      JSON.stringify({ origin: 'x', event: 'package.synced' }),
    ]) {
      expect(parseEnvelope(raw), raw).toBeNull();
    }
  });
});

describe('createEventBus', () => {
  it('is in-process without REDIS_URL and Redis-backed with it', async () => {
    expect(createEventBus({ redisUrl: null, redisKeyPrefix: 'p:' })).toBeInstanceOf(MemoryEventBus);
    const redis = createEventBus({ redisUrl: REDIS_URL, redisKeyPrefix: uniquePrefix() });
    opened.push(redis);
    expect(redis).toBeInstanceOf(RedisEventBus);
  });
});

describe('RedisEventBus', () => {
  it('delivers an event once to the publisher’s subscribers and once to another node’s', async () => {
    const prefix = uniquePrefix();
    const a = bus(prefix);
    const b = bus(prefix);
    expect(await a.whenSubscribed()).toBe(true);
    expect(await b.whenSubscribed()).toBe(true);
    const gotA: DomainEvent[] = [];
    const gotB: DomainEvent[] = [];
    a.subscribe((e) => gotA.push(e));
    b.subscribe((e) => gotB.push(e));

    a.publish(synced('acme/one'));
    // Local delivery happens before publish returns.
    expect(gotA).toEqual([synced('acme/one')]);
    await until(() => gotB.length === 1);

    b.publish(synced('acme/two'));
    expect(gotB).toEqual([synced('acme/one'), synced('acme/two')]);
    await until(() => gotA.length === 2);

    // Give any duplicate (an echo of one's own message) time to arrive: none does.
    await sleep(200);
    expect(gotA).toEqual([synced('acme/one'), synced('acme/two')]);
    expect(gotB).toEqual([synced('acme/one'), synced('acme/two')]);
  });

  it('does not cross prefixes', async () => {
    const a = bus(uniquePrefix());
    const b = bus(uniquePrefix());
    await a.whenSubscribed();
    await b.whenSubscribed();
    const gotB: DomainEvent[] = [];
    b.subscribe((e) => gotB.push(e));
    a.publish(synced('acme/elsewhere'));
    await sleep(200);
    expect(gotB).toEqual([]);
  });

  it('subscribes and unsubscribes, for local and remote events', async () => {
    const prefix = uniquePrefix();
    const a = bus(prefix);
    const b = bus(prefix);
    await a.whenSubscribed();
    await b.whenSubscribed();
    const first: string[] = [];
    const second: string[] = [];
    const name = (e: DomainEvent) =>
      e.type === 'customer.activity' ? e.customerId : 'package' in e ? e.package : e.type;
    const offFirst = b.subscribe((e) => first.push(name(e)));
    b.subscribe((e) => second.push(name(e)));

    a.publish(synced('acme/1'));
    await until(() => second.length === 1);
    offFirst();
    a.publish(synced('acme/2'));
    b.publish(synced('acme/3'));
    await until(() => second.length === 3);
    expect(first).toEqual(['acme/1']);
    // acme/3 is local (delivered at once), acme/2 comes over Redis: the order may differ.
    expect([...second].sort()).toEqual(['acme/1', 'acme/2', 'acme/3']);
  });

  it('ignores garbage on the channel and its own echoes', async () => {
    const prefix = uniquePrefix();
    const a = bus(prefix);
    await a.whenSubscribed();
    const got: DomainEvent[] = [];
    a.subscribe((e) => got.push(e));
    const raw = rawClient();
    const channel = `${prefix}events`;
    for (const garbage of [
      'not json',
      '{"origin":"x","event":{"type":"package.exploded","tenantId":"default","at":"x"}}',
      '{"event":{"type":"package.synced"}}',
      'null',
    ]) {
      await raw.publish(channel, garbage);
    }
    // A well-formed message from another node still arrives, after the garbage.
    await raw.publish(channel, JSON.stringify({ origin: 'other-node', event: synced('acme/ok') }));
    await until(() => got.length === 1);
    await sleep(100);
    expect(got).toEqual([synced('acme/ok')]);
  });

  it('keeps delivering when a listener throws', async () => {
    const errors: Error[] = [];
    const a = bus(uniquePrefix(), (err) => errors.push(err));
    const got: DomainEvent[] = [];
    a.subscribe(() => {
      throw new Error('listener broke');
    });
    a.subscribe((e) => got.push(e));
    expect(() => a.publish(synced('acme/x'))).not.toThrow();
    expect(got).toHaveLength(1);
    expect(errors.map((e) => e.message)).toContain('listener broke');
  });

  it('still delivers locally, without throwing or hanging, when Redis is unreachable', async () => {
    const errors: Error[] = [];
    const down = new RedisEventBus({
      url: 'redis://127.0.0.1:1',
      prefix: uniquePrefix(),
      onError: (err) => errors.push(err),
    });
    const got: DomainEvent[] = [];
    down.subscribe((e) => got.push(e));
    const started = Date.now();
    for (let i = 0; i < 5; i++) expect(() => down.publish(synced(`acme/${i}`))).not.toThrow();
    expect(Date.now() - started).toBeLessThan(100);
    expect(got).toHaveLength(5);
    await until(() => errors.length > 0);
    // Let reconnect attempts and queued publishes fail: still reported only once.
    await sleep(500);
    expect(errors).toHaveLength(1);
    expect(await down.whenSubscribed(50)).toBe(false);
    const closing = Date.now();
    await down.close();
    expect(Date.now() - closing).toBeLessThan(1000);
    // Closed: publishing still does not throw, and nothing is delivered any more.
    expect(() => down.publish(synced('acme/late'))).not.toThrow();
    expect(got).toHaveLength(5);
  });
});

describe('two runtimes on one database and one Redis', () => {
  let testApp: TestApp;
  let other: Runtime | null = null;
  beforeAll(async () => {
    testApp = await createTestApp({
      REDIS_URL,
      REDIS_KEY_PREFIX: uniquePrefix(),
      WORKER: 'off',
    });
    other = await openRuntime(testApp.config);
  });
  afterAll(async () => {
    await other?.close();
    await testApp.close();
  });

  it('a subscriber on runtime B hears events that runtime A’s services publish', async () => {
    const a = testApp.runtime;
    if (!other) throw new Error('runtime B did not open');
    const b = other;
    const busA = a.services.deps.events;
    const busB = b.services.deps.events;
    expect(busA).toBeInstanceOf(RedisEventBus);
    expect(busB).toBeInstanceOf(RedisEventBus);
    if (!(busA instanceof RedisEventBus) || !(busB instanceof RedisEventBus)) return;
    expect(await busA.whenSubscribed()).toBe(true);
    expect(await busB.whenSubscribed()).toBe(true);

    const heardA: DomainEvent[] = [];
    const heardB: DomainEvent[] = [];
    busA.subscribe((e) => heardA.push(e));
    busB.subscribe((e) => heardB.push(e));

    const ctx: Ctx = { tenantId: 'default', actor: { kind: 'system', id: null } };
    const customer = await a.services.customers.create(ctx, {
      name: 'Acme',
      email: 'ops@acme.test',
    });
    await a.services.customers.suspend(ctx, customer.id, 'unpaid');

    const isSuspension = (e: DomainEvent) =>
      e.type === 'customer.activity' &&
      e.customerId === customer.id &&
      e.activity === 'STATUS_CHANGED';
    await until(() => heardB.some(isSuspension));
    await sleep(200);
    expect(heardA.filter(isSuspension)).toHaveLength(1);
    expect(heardB.filter(isSuspension)).toHaveLength(1);
    // B's copy is the same event, timestamps and all.
    expect(heardB.find(isSuspension)).toEqual(heardA.find(isSuspension));
    // And B's services see A's rows: it is one registry.
    expect((await b.services.customers.get(ctx, customer.id)).status).toBe('SUSPENDED');
  });
});

describe('cache notices over Redis', () => {
  it('parseNotice accepts only well-formed notices', () => {
    const notice = { kind: 'generation', tenantId: 't', generation: 3 };
    expect(parseNotice(JSON.stringify({ origin: 'o', notice }))).toEqual({ origin: 'o', notice });
    const forget = { kind: 'forget', cache: 'tenant-host', key: 'acme' };
    expect(parseNotice(JSON.stringify({ origin: 'o', notice: forget }))?.notice).toEqual(forget);
    for (const raw of [
      'nope',
      'null',
      '{"origin":"o","notice":{"kind":"generation","tenantId":"t"}}',
      '{"origin":"o","notice":{"kind":"generation","tenantId":"t","generation":"3"}}',
      '{"origin":"o","notice":{"kind":"generation","tenantId":"t","generation":1.5}}',
      '{"origin":"o","notice":{"kind":"packages","tenantId":"t","names":[1],"seq":2}}',
      '{"origin":"o","notice":{"kind":"forget","cache":"other","key":"k"}}',
      '{"origin":"o","notice":{"kind":"event","event":{}}}',
      '{"notice":{"kind":"generation","tenantId":"t","generation":3}}',
    ]) {
      expect(parseNotice(raw), raw).toBeNull();
    }
  });

  it('reaches the other node, not the sender, and ignores garbage', async () => {
    const prefix = uniquePrefix();
    const a = bus(prefix);
    const b = bus(prefix);
    await a.whenSubscribed();
    await b.whenSubscribed();
    const gotA: Notice[] = [];
    const gotB: Notice[] = [];
    a.onRemoteNotice((n) => gotA.push(n));
    const off = b.onRemoteNotice((n) => gotB.push(n));
    const events: DomainEvent[] = [];
    b.subscribe((e) => events.push(e));
    await rawClient().publish(`${prefix}notices`, '{"garbage":true}');
    a.sendNotice({ kind: 'generation', tenantId: 'tenant-1', generation: 7 });
    await until(() => gotB.length === 1);
    await sleep(100);
    expect(gotB).toEqual([{ kind: 'generation', tenantId: 'tenant-1', generation: 7 }]);
    expect(gotA).toEqual([]);
    // Notices are not domain events.
    expect(events).toEqual([]);
    off();
    a.sendNotice({ kind: 'generation', tenantId: 'tenant-1', generation: 8 });
    await sleep(100);
    expect(gotB).toHaveLength(1);
  });

  it('invalidates another node at once, without waiting for its poll, and only once', async () => {
    const testApp = await createTestApp({ WORKER: 'off' });
    opened.push(testApp);
    const db = testApp.db;
    const prefix = uniquePrefix();
    const busA = bus(prefix);
    const busB = bus(prefix);
    await busA.whenSubscribed();
    await busB.whenSubscribed();
    // A poll far away: only the Redis signal can make B see A's bump within the test.
    const log = createLogger('silent');
    const genA = new CacheGeneration(db, 600_000, new ProcessPeers(log, busA));
    const genB = new CacheGeneration(db, 600_000, new ProcessPeers(log, busB));
    opened.push({ close: async () => genA.stop() }, { close: async () => genB.stop() });
    await genA.poll();
    await genB.poll();
    genA.start();
    genB.start();
    const a0 = genA.current('default');
    const b0 = genB.current('default');

    await genA.accessChanged('default');
    expect(genA.current('default')).toBe(a0 + 1);
    await until(() => genB.current('default') === b0 + 1, 2000);

    // The database poll then finds nothing new on either node: no second invalidation.
    await genA.poll();
    await genB.poll();
    await sleep(100);
    expect(genA.current('default')).toBe(a0 + 1);
    expect(genB.current('default')).toBe(b0 + 1);

    // Once stopped, B no longer listens; the poll is still the fallback.
    genB.stop();
    await genA.accessChanged('default');
    await sleep(150);
    expect(genB.current('default')).toBe(b0 + 1);
    await genB.poll();
    expect(genB.current('default')).toBe(b0 + 2);
  });
});
