import crypto from 'node:crypto';
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import WebSocket from 'ws';
import { startServer } from '../../test/e2e/server.js';
import type { RunningServer } from '../../test/e2e/server.js';
import { ADMIN_TOKEN, TEST_REDIS_URL as REDIS_URL, waitFor } from '../../test/helpers.js';
import { adminApi, createCustomer, waitForSync } from '../../test/factories.js';
import { GitFixture } from '../../test/fixtures/git-repo.js';
import { buildApp } from '../app.js';
import { openRuntime } from '../runtime.js';
import type { EventBus } from '../infra/events.js';
import { WS_FORBIDDEN, WS_TOO_MANY, payloadToken } from './subscriptions.js';

const PACKAGE_SYNCED = /* GraphQL */ `
  subscription ($name: String) {
    packageSynced(name: $name) {
      package
      status
      versionsAdded
      versionsRemoved
      error
      syncedAt
    }
  }
`;

const CUSTOMER_ACTIVITY = /* GraphQL */ `
  subscription ($customerId: ID) {
    customerActivity(customerId: $customerId) {
      customerId
      type
      package
      version
      at
    }
  }
`;

interface Payload {
  data?: Record<string, Record<string, unknown>> | null;
  errors?: unknown;
}

/** A running subscription: what it received so far, how it ended, and how to stop it. */
interface Feed {
  received: Payload[];
  ended: { error: unknown } | null;
  stop(): void;
}

const opened: { close(): Promise<unknown> | void }[] = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});

function wsUrl(server: { url: string }): string {
  return `${server.url.replace(/^http/, 'ws')}/graphql`;
}

function connect(url: string, token: string = ADMIN_TOKEN, key = 'Authorization'): Client {
  const client = createClient({
    url,
    webSocketImpl: WebSocket,
    connectionParams: { [key]: `Bearer ${token}` },
    retryAttempts: 0,
    lazy: true,
  });
  opened.push({ close: () => client.dispose() });
  return client;
}

function feed(client: Client, query: string, variables: Record<string, unknown> = {}): Feed {
  const f: Feed = { received: [], ended: null, stop: () => undefined };
  f.stop = client.subscribe<Payload['data']>(
    { query, variables },
    {
      next: (value) => f.received.push(value),
      error: (error) => {
        f.ended = { error };
      },
      complete: () => {
        f.ended ??= { error: null };
      },
    },
  );
  return f;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  await waitFor(
    async () => check(),
    (ok) => ok,
    { timeoutMs, intervalMs: 20 },
  );
}

/** Counts the bus listeners added from now on (one per live subscription), without new API. */
function countListeners(bus: EventBus): { active: number } {
  const counter = { active: 0 };
  const subscribe = bus.subscribe.bind(bus);
  bus.subscribe = (listener) => {
    counter.active += 1;
    const off = subscribe(listener);
    let removed = false;
    return () => {
      if (!removed) counter.active -= 1;
      removed = true;
      off();
    };
  };
  return counter;
}

function repoWith(name: string, versions: string[]): GitFixture {
  const repo = new GitFixture(name);
  for (const v of versions) repo.release(v);
  opened.push({ close: () => repo.remove() });
  return repo;
}

async function addPackage(server: RunningServer, name: string, url: string): Promise<void> {
  await adminApi(server)('POST', '/api/v1/packages', { name, repository_url: url, type: 'git' });
}

describe('payloadToken', () => {
  it('reads the bearer token under any case of the Authorization key', () => {
    expect(payloadToken({ Authorization: 'Bearer abc' })).toBe('abc');
    expect(payloadToken({ authorization: 'bearer abc' })).toBe('abc');
    expect(payloadToken({ AUTHORIZATION: 'Bearer abc' })).toBe('abc');
    expect(payloadToken({ Authorization: 'Basic abc' })).toBeNull();
    expect(payloadToken({})).toBeNull();
    expect(payloadToken(null)).toBeNull();
  });
});

describe('GraphQL subscriptions over WebSocket', () => {
  let server: RunningServer;
  let listeners: { active: number };

  beforeAll(async () => {
    server = await startServer();
    listeners = countListeners(server.runtime.services.deps.events);
  });
  afterAll(async () => {
    await server.close();
  });

  it('delivers packageSynced after a real sync, filtered by name', async () => {
    const client = connect(wsUrl(server));
    const mine = feed(client, PACKAGE_SYNCED, { name: 'acme/subs' });
    const all = feed(client, PACKAGE_SYNCED);
    await until(() => listeners.active === 2);

    await addPackage(server, 'acme/other', repoWith('acme/other', ['2.0.0']).url);
    await addPackage(server, 'acme/subs', repoWith('acme/subs', ['1.0.0', '1.1.0']).url);
    await waitForSync(server, 'acme/other');
    await waitForSync(server, 'acme/subs');

    await until(() => mine.received.length >= 1 && all.received.length >= 2);
    await sleep(100);
    expect(mine.received).toHaveLength(1);
    const event = mine.received[0]?.data?.packageSynced;
    expect(event).toMatchObject({
      package: 'acme/subs',
      status: 'ok',
      versionsRemoved: [],
      error: null,
    });
    expect([...((event?.versionsAdded as string[]) ?? [])].sort()).toEqual([
      '1.0.0',
      '1.1.0',
      'dev-main',
    ]);
    expect(typeof event?.syncedAt).toBe('string');
    expect(all.received.map((p) => p.data?.packageSynced?.package).sort()).toEqual([
      'acme/other',
      'acme/subs',
    ]);

    mine.stop();
    all.stop();
    await until(() => listeners.active === 0);
  });

  it('delivers customerActivity for the chosen customer: STATUS_CHANGED and TOKEN_CREATED', async () => {
    const api = adminApi(server);
    const watched = await createCustomer(server, 'Watched');
    const other = await createCustomer(server, 'Other');
    const client = connect(wsUrl(server), ADMIN_TOKEN, 'authorization');
    const f = feed(client, CUSTOMER_ACTIVITY, { customerId: watched.id });
    await until(() => listeners.active === 1);

    await api('POST', `/api/v1/customers/${other.id}/suspend`, { reason: 'other' });
    await api('POST', `/api/v1/customers/${watched.id}/suspend`, { reason: 'unpaid' });
    await api('POST', `/api/v1/customers/${other.id}/tokens`, { name: 'ci' });
    await api('POST', `/api/v1/customers/${watched.id}/tokens`, { name: 'ci' });

    await until(() => f.received.length >= 2);
    await sleep(100);
    const events = f.received.map((p) => p.data?.customerActivity);
    expect(events.map((e) => e?.type)).toEqual(['STATUS_CHANGED', 'TOKEN_CREATED']);
    for (const e of events) {
      expect(e).toMatchObject({ customerId: watched.id, package: null, version: null });
      expect(typeof e?.at).toBe('string');
    }

    f.stop();
    await until(() => listeners.active === 0);
  });

  it('a viewer token may subscribe', async () => {
    const team = (await adminApi(server)('POST', '/api/v1/team/tokens', {
      name: 'viewer',
      level: 'viewer',
    })) as { plain_token: string };
    const token = team.plain_token;
    const f = feed(connect(wsUrl(server), token), CUSTOMER_ACTIVITY);
    await until(() => listeners.active === 1);
    expect(f.ended).toBeNull();
    f.stop();
    await until(() => listeners.active === 0);
  });

  it('refuses a bad or missing token with close code 4403', async () => {
    const bad = feed(connect(wsUrl(server), 'not-a-token'), PACKAGE_SYNCED);
    await until(() => bad.ended !== null);
    expect((bad.ended?.error as { code?: number }).code).toBe(WS_FORBIDDEN);

    const anonymous = createClient({
      url: wsUrl(server),
      webSocketImpl: WebSocket,
      retryAttempts: 0,
    });
    opened.push({ close: () => anonymous.dispose() });
    const none = feed(anonymous, PACKAGE_SYNCED);
    await until(() => none.ended !== null);
    expect((none.ended?.error as { code?: number }).code).toBe(WS_FORBIDDEN);
    expect(listeners.active).toBe(0);
  });

  it('stops delivery once unsubscribed, and a closed socket leaves no listener', async () => {
    const client = connect(wsUrl(server));
    const f = feed(client, PACKAGE_SYNCED, { name: 'acme/stop' });
    await until(() => listeners.active === 1);
    f.stop();
    await until(() => listeners.active === 0);

    const repo = repoWith('acme/stop', ['1.0.0']);
    await addPackage(server, 'acme/stop', repo.url);
    await waitForSync(server, 'acme/stop');
    await sleep(200);
    expect(f.received).toHaveLength(0);

    // A client that goes away without completing its subscription frees it as well.
    const gone = connect(wsUrl(server));
    feed(gone, PACKAGE_SYNCED);
    await until(() => listeners.active === 1);
    await gone.dispose();
    await until(() => listeners.active === 0);
  });

  it('reads the events table: a lost notice loses nothing, the next delivers in table order', async () => {
    const bus = server.runtime.services.deps.events;
    const publish = bus.publish.bind(bus);
    let drop = false;
    bus.publish = (event) => {
      if (drop && event.type === 'events.appended') return;
      publish(event);
    };
    try {
      const f = feed(connect(wsUrl(server)), PACKAGE_SYNCED);
      await until(() => listeners.active === 1);
      drop = true;
      await addPackage(server, 'acme/lost-1', repoWith('acme/lost-1', ['1.0.0']).url);
      await waitForSync(server, 'acme/lost-1');
      await sleep(200);
      expect(f.received).toHaveLength(0);

      drop = false;
      await addPackage(server, 'acme/lost-2', repoWith('acme/lost-2', ['2.0.0']).url);
      await waitForSync(server, 'acme/lost-2');
      await until(() => f.received.length >= 2);
      const got = f.received.map((p) => p.data?.packageSynced);
      expect(got.map((e) => e?.package)).toEqual(['acme/lost-1', 'acme/lost-2']);
      // The values are the feed's: syncedAt is the event's created_at.
      const feedEvents = (await adminApi(server)('GET', '/api/v1/events?type=package.synced')) as {
        data: { created_at: string; data: { package: string } }[];
      };
      const created = feedEvents.data.find((e) => e.data.package === 'acme/lost-1')?.created_at;
      expect(got[0]?.syncedAt).toBe(created);
      f.stop();
      await until(() => listeners.active === 0);
    } finally {
      bus.publish = publish;
    }
  });
});

describe('the HTTP side of /graphql', () => {
  it('a plain request with WebSocket upgrade headers still needs a token', async () => {
    const server = await startServer();
    opened.push(server);
    const res = await server.app.inject({
      method: 'GET',
      url: '/graphql?query=%7B__typename%7D',
      headers: { connection: 'Upgrade', upgrade: 'websocket' },
    });
    expect(res.json()).toMatchObject({
      data: null,
      errors: [{ extensions: { code: 'UNAUTHORIZED' } }],
    });
  });
});

describe('guessed tokens over WebSocket', () => {
  it('count as failed authentications of the address, as on HTTP; a valid token still connects', async () => {
    const server = await startServer({ AUTH_FAILURE_LIMIT: '2' });
    opened.push(server);
    const codes: unknown[] = [];
    for (let i = 0; i < 4; i++) {
      const guess = feed(connect(wsUrl(server), `guess-${i}`), PACKAGE_SYNCED);
      await until(() => guess.ended !== null);
      codes.push((guess.ended?.error as { code?: number }).code);
    }
    // Past the limit a refused token is told to wait; the first two were plain refusals.
    expect(codes).toEqual([WS_FORBIDDEN, WS_FORBIDDEN, WS_TOO_MANY, WS_TOO_MANY]);
    // The right token from the same address is never refused for the others' failures.
    const client = connect(wsUrl(server));
    let connected = false;
    client.on('connected', () => {
      connected = true;
    });
    const right = feed(client, PACKAGE_SYNCED);
    await until(() => connected || right.ended !== null);
    expect(right.ended).toBeNull();
    expect(connected).toBe(true);
    const http = await fetch(`${server.url}/api/v1/customers`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(http.status).toBe(200);
    const bad = await fetch(`${server.url}/api/v1/customers`, {
      headers: { authorization: 'Bearer guess-http' },
    });
    expect(bad.status).toBe(429);
    expect(Number(bad.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('GraphQL subscriptions in the community edition', () => {
  it('are refused with close code 4403', async () => {
    const server = await startServer({ EDITION: 'community' });
    opened.push(server);
    const f = feed(connect(wsUrl(server)), PACKAGE_SYNCED);
    await until(() => f.ended !== null);
    expect((f.ended?.error as { code?: number; reason?: string }).code).toBe(WS_FORBIDDEN);
    expect((f.ended?.error as { reason?: string }).reason).toBe('FEATURE_NOT_AVAILABLE');
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describe('GraphQL subscriptions across two nodes (Redis)', () => {
  it('a subscriber on node B hears a sync run by node A', async () => {
    const redisEnv = {
      REDIS_URL,
      REDIS_KEY_PREFIX: `packyard-test-${crypto.randomBytes(6).toString('hex')}:`,
    };
    // Node A: its own data (DATA_DIR, and on PostgreSQL its schema) and the only worker.
    const nodeA = await startServer(redisEnv);
    opened.push(nodeA);

    // Node B: the same configuration (same data, same Redis prefix), no worker, another port.
    const port = await freePort();
    const runtimeB = await openRuntime({
      ...nodeA.config,
      port,
      baseUrl: `http://127.0.0.1:${port}`,
      worker: false,
    });
    const appB = await buildApp({ services: runtimeB.services });
    opened.push({
      close: async () => {
        await appB.close();
        await runtimeB.close();
      },
    });
    await appB.listen({ port, host: '127.0.0.1' });
    const listenersB = countListeners(runtimeB.services.deps.events);

    const f = feed(connect(`ws://127.0.0.1:${port}/graphql`), PACKAGE_SYNCED, {
      name: 'acme/cluster',
    });
    await until(() => listenersB.active === 1);

    const repo = repoWith('acme/cluster', ['3.0.0']);
    await addPackage(nodeA, 'acme/cluster', repo.url);
    await waitForSync(nodeA, 'acme/cluster');

    await until(() => f.received.length === 1);
    expect(f.received[0]?.data?.packageSynced).toMatchObject({
      package: 'acme/cluster',
      status: 'ok',
    });
    expect(f.received[0]?.data?.packageSynced?.versionsAdded).toContain('3.0.0');
    // Read from the shared events table on B's notice: the event's created_at, as the feed shows it.
    const feedEvents = (await adminApi(nodeA)('GET', '/api/v1/events?type=package.synced')) as {
      data: { created_at: string; data: { package: string } }[];
    };
    const event = feedEvents.data.find((e) => e.data.package === 'acme/cluster');
    expect(f.received[0]?.data?.packageSynced?.syncedAt).toBe(event?.created_at);
    f.stop();
    await until(() => listenersB.active === 0);
  });
});
