/**
 * Coherence of a `packyard serve` cluster (WEB_CONCURRENCY=2, no Redis): once the call that made
 * a change has answered, every later request sees the change, whichever process takes it
 * (docs/deployment.md, docs/composer.md, docs/access.md). Each case warms the caches of both
 * processes, makes the change on a fresh connection, then reads at once, without waiting or
 * polling, on fresh connections (which alternate between the processes): every read must show it.
 *
 * COHERENCE_CONCURRENCY=1 runs the same cases against one process, which checks the cases
 * themselves apart from the cluster.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import WebSocket from 'ws';
import { packageZip } from '../src/areas/artifacts/test-zips.js';
import { ADMIN_TOKEN, basicAuth, waitFor } from './helpers.js';
import { apiClient, fresh, startServe } from './cluster-helpers.js';
import type { Answer, Api, Json, Serve } from './cluster-helpers.js';

const CONCURRENCY = Number(process.env.COHERENCE_CONCURRENCY ?? '2');
/** Fresh reads right after a change: three on each process. */
const READS = 6;
/** Fresh reads that warm the caches before a change: two on each process. */
const WARM = 4;
const VERSIONS = ['1.0.0', '1.1.0', '2.0.0'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits out the processes' once-a-second poll of the cache generation after a case's setup, so
 * the entries warmed next are the ones its change must replace. Without it a process could drop
 * them by chance, noticing the setup's own writes on its poll, and a case would pass on code
 * that is not coherent. Never used between a change and its reads.
 */
const settle = () => sleep(1_500);

let counter = 0;
/** A name no earlier case used (lower case letters and digits). */
const unique = (prefix: string) => `${prefix}${++counter}${crypto.randomBytes(3).toString('hex')}`;

/** An artifact package with the given versions, uploaded through the API (no git). */
async function artifactPackage(api: Api, name: string, versions = VERSIONS): Promise<void> {
  await api('POST', '/packages', { name, type: 'artifact' });
  for (const version of versions) await upload(api, name, version);
}

function upload(api: Api, name: string, version: string): Promise<Json> {
  return api(
    'POST',
    `/packages/${name}/artifacts`,
    packageZip({ name, version }, { 'src/Lib.php': '<?php\n' }),
  );
}

interface Buyer {
  id: string;
  tokenId: string;
  token: string;
  /** Composer's Basic header for the token. */
  auth: Record<string, string>;
}

/** A customer granted `grants` (package -> constraint) with one download token. */
async function buyer(api: Api, grants: Record<string, string>): Promise<Buyer> {
  const customer = await api('POST', '/customers', {
    name: unique('Buyer '),
    email: `${unique('buyer')}@example.test`,
  });
  const id = String(customer.id);
  for (const [name, constraint] of Object.entries(grants)) {
    await api('POST', `/customers/${id}/packages`, { package: name, constraint });
  }
  const issued = await newToken(api, id);
  return { id, ...issued };
}

async function newToken(
  api: Api,
  customerId: string,
  extra: Record<string, unknown> = {},
): Promise<Omit<Buyer, 'id'>> {
  const issued = await api('POST', `/customers/${customerId}/tokens`, {
    name: unique('t'),
    scope: 'download',
    ...extra,
  });
  const token = String(issued.plain_token);
  return {
    tokenId: String(issued.token.id),
    token,
    auth: { authorization: basicAuth(token) },
  };
}

/** `n` reads, one after the other, each on its own connection. */
async function reads(
  origin: string,
  path: string,
  headers: Record<string, string>,
  n = READS,
): Promise<Answer[]> {
  const out: Answer[] = [];
  for (let i = 0; i < n; i++) out.push(await fresh(`${origin}${path}`, headers));
  return out;
}

/** Warms every process's cache of each path with reads that must answer `status`. */
async function warm(
  origin: string,
  paths: string[],
  headers: Record<string, string>,
  status = 200,
): Promise<void> {
  for (const path of paths) {
    const statuses = (await reads(origin, path, headers, WARM)).map((a) => a.status);
    expect(statuses, `warming ${path}`).toEqual(Array<number>(WARM).fill(status));
  }
}

const statuses = (answers: Answer[]) => answers.map((a) => a.status);
const all = <T>(value: T, n = READS): T[] => Array<T>(n).fill(value);
const p2 = (name: string) => `/p2/${name}.json`;

/** The versions a p2 answer lists, sorted; `status N` for any other answer. */
function versionsOf(answer: Answer, name: string): string[] | string {
  if (answer.status !== 200) return `status ${answer.status}`;
  const doc = JSON.parse(answer.body) as { packages: Record<string, { version: string }[]> };
  return (doc.packages[name] ?? []).map((e) => e.version).sort();
}

/** `available-packages` of a packages.json answer; `status N` for any other answer. */
function availableOf(answer: Answer): string[] | string {
  if (answer.status !== 200) return `status ${answer.status}`;
  return (JSON.parse(answer.body) as { 'available-packages': string[] })['available-packages'];
}

/** The error code of an answer (`status N` when it is not an error body). */
function codeOf(answer: Answer): string {
  try {
    return String((JSON.parse(answer.body) as { code?: string }).code ?? `status ${answer.status}`);
  } catch {
    return `status ${answer.status}`;
  }
}

describe(`packyard serve with WEB_CONCURRENCY=${CONCURRENCY}: a change is served by every process once its call answered`, () => {
  let s: Serve;

  beforeAll(async () => {
    s = await startServe({ label: 'coherence', concurrency: CONCURRENCY });
  }, 120_000);

  afterAll(async () => {
    await s?.stop();
  }, 60_000);

  /** A package with 1.0.0, 1.1.0 and 2.0.0 and a customer granted `constraint` on it. */
  async function granted(constraint = '*') {
    const name = `${unique('co')}/lib`;
    await artifactPackage(s.api, name);
    const b = await buyer(s.api, { [name]: constraint });
    await settle();
    await warm(s.url, [p2(name), '/packages.json'], b.auth);
    return { name, ...b };
  }

  it('refuses a revoked token (401)', async () => {
    const b = await granted();
    await s.api('DELETE', `/customers/${b.id}/tokens/${b.tokenId}`);
    expect(statuses(await reads(s.url, p2(b.name), b.auth))).toEqual(all(401));
    expect(statuses(await reads(s.url, '/packages.json', b.auth))).toEqual(all(401));
  });

  it('refuses the old value of a rotated token (401) and serves the new one (200)', async () => {
    const b = await granted();
    const rotated = await s.api('POST', `/customers/${b.id}/tokens/${b.tokenId}/rotate`);
    const auth = { authorization: basicAuth(String(rotated.plain_token)) };
    expect(statuses(await reads(s.url, p2(b.name), b.auth))).toEqual(all(401));
    expect(statuses(await reads(s.url, '/packages.json', b.auth))).toEqual(all(401));
    expect((await reads(s.url, p2(b.name), auth)).map((a) => versionsOf(a, b.name))).toEqual(
      all(VERSIONS),
    );
  });

  it('refuses a token once its expires_at has passed (401)', async () => {
    const name = `${unique('co')}/lib`;
    await artifactPackage(s.api, name);
    const b = await buyer(s.api, { [name]: '*' });
    const expiresAt = Date.now() + 5_500;
    const short = await newToken(s.api, b.id, { expires_at: new Date(expiresAt).toISOString() });
    await settle();
    await warm(s.url, [p2(name), '/packages.json'], short.auth);
    expect(Date.now(), 'the machine was too slow to warm before the expiry').toBeLessThan(
      expiresAt,
    );
    await sleep(expiresAt - Date.now() + 50);
    expect(statuses(await reads(s.url, p2(name), short.auth))).toEqual(all(401));
    expect(statuses(await reads(s.url, '/packages.json', short.auth))).toEqual(all(401));
    // The customer's other token is not touched.
    expect(statuses(await reads(s.url, p2(name), b.auth))).toEqual(all(200));
  });

  it('refuses a suspended customer (403)', async () => {
    const b = await granted();
    await s.api('POST', `/customers/${b.id}/suspend`, { reason: 'unpaid' });
    expect(statuses(await reads(s.url, p2(b.name), b.auth))).toEqual(all(403));
    expect(statuses(await reads(s.url, '/packages.json', b.auth))).toEqual(all(403));
  });

  it('serves a reactivated customer again (200)', async () => {
    const b = await granted();
    await s.api('POST', `/customers/${b.id}/suspend`, {});
    await settle();
    // Both processes have answered 403 to this token before the change.
    await warm(s.url, [p2(b.name), '/packages.json'], b.auth, 403);
    await s.api('POST', `/customers/${b.id}/reactivate`);
    expect((await reads(s.url, p2(b.name), b.auth)).map((a) => versionsOf(a, b.name))).toEqual(
      all(VERSIONS),
    );
    expect((await reads(s.url, '/packages.json', b.auth)).map(availableOf)).toEqual(all([b.name]));
  });

  it('shows a frozen customer only its frozen versions, and everything again once reactivated', async () => {
    const b = await granted();
    await s.api('POST', `/customers/${b.id}/freeze`, {
      versions: [
        { package: b.name, version: '1.0.0' },
        { package: b.name, version: '1.1.0' },
      ],
    });
    expect((await reads(s.url, p2(b.name), b.auth)).map((a) => versionsOf(a, b.name))).toEqual(
      all(['1.0.0', '1.1.0']),
    );
    await s.api('POST', `/customers/${b.id}/reactivate`);
    expect((await reads(s.url, p2(b.name), b.auth)).map((a) => versionsOf(a, b.name))).toEqual(
      all(VERSIONS),
    );
  });

  it('shows an upload to customers at once, and not to a customer frozen before it', async () => {
    const b = await granted();
    const frozen = await buyer(s.api, { [b.name]: '*' });
    await s.api('POST', `/customers/${frozen.id}/freeze`, {});
    await settle();
    await warm(s.url, [p2(b.name)], b.auth);
    await warm(s.url, [p2(b.name)], frozen.auth);
    await upload(s.api, b.name, '2.1.0');
    expect((await reads(s.url, p2(b.name), b.auth)).map((a) => versionsOf(a, b.name))).toEqual(
      all([...VERSIONS, '2.1.0']),
    );
    expect((await reads(s.url, p2(b.name), frozen.auth)).map((a) => versionsOf(a, b.name))).toEqual(
      all(VERSIONS),
    );
  });

  it('refuses a customer whose access_expires_at is set in the past (403)', async () => {
    const b = await granted();
    await s.api('PATCH', `/customers/${b.id}`, {
      access_expires_at: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(statuses(await reads(s.url, p2(b.name), b.auth))).toEqual(all(403));
    expect(statuses(await reads(s.url, '/packages.json', b.auth))).toEqual(all(403));
  });

  it('refuses a customer once an access_expires_at set soon has passed (403)', async () => {
    const b = await granted();
    // Shorter than the old once-a-second poll: the reads come before a process could have
    // polled its way to the new date.
    const expiresAt = Date.now() + 800;
    await s.api('PATCH', `/customers/${b.id}`, {
      access_expires_at: new Date(expiresAt).toISOString(),
    });
    await sleep(expiresAt - Date.now() + 20);
    expect(statuses(await reads(s.url, p2(b.name), b.auth))).toEqual(all(403));
    expect(statuses(await reads(s.url, '/packages.json', b.auth))).toEqual(all(403));
  });

  it('hides 2.x at once when a grant is narrowed from * to ^1.0', async () => {
    const b = await granted('*');
    await s.api('PUT', `/customers/${b.id}/packages`, {
      packages: [{ package: b.name, constraint: '^1.0' }],
    });
    expect((await reads(s.url, p2(b.name), b.auth)).map((a) => versionsOf(a, b.name))).toEqual(
      all(['1.0.0', '1.1.0']),
    );
  });

  it('refuses a package whose grant was removed (403) and leaves it out of packages.json', async () => {
    const b = await granted();
    await s.api('DELETE', `/customers/${b.id}/packages/${b.name}`);
    expect(statuses(await reads(s.url, p2(b.name), b.auth))).toEqual(all(403));
    expect((await reads(s.url, '/packages.json', b.auth)).map(availableOf)).toEqual(all([]));
  });

  it('refuses a package removed from a granted collection (403)', async () => {
    const vendor = unique('co');
    const [kept, removed] = [`${vendor}/kept`, `${vendor}/removed`];
    await artifactPackage(s.api, kept);
    await artifactPackage(s.api, removed);
    const slug = unique('col');
    await s.api('POST', '/collections', { name: slug, slug, packages: [kept, removed] });
    const b = await buyer(s.api, {});
    await s.api('POST', `/customers/${b.id}/collections`, { collection: slug, constraint: '*' });
    await settle();
    await warm(s.url, [p2(kept), p2(removed), '/packages.json'], b.auth);
    await s.api('PATCH', `/collections/${slug}`, { remove_packages: [removed] });
    expect(statuses(await reads(s.url, p2(removed), b.auth))).toEqual(all(403));
    expect((await reads(s.url, '/packages.json', b.auth)).map(availableOf)).toEqual(all([kept]));
    expect((await reads(s.url, p2(kept), b.auth)).map((a) => versionsOf(a, kept))).toEqual(
      all(VERSIONS),
    );
  });

  it('answers 404 for a deleted package and leaves it out of packages.json', async () => {
    const b = await granted();
    await s.api('DELETE', `/packages/${b.name}`);
    expect(statuses(await reads(s.url, p2(b.name), b.auth))).toEqual(all(404));
    expect((await reads(s.url, '/packages.json', b.auth)).map(availableOf)).toEqual(all([]));
  });

  it('stops listing a yanked version, and lists it again once unyanked', async () => {
    const b = await granted();
    await s.api('POST', `/packages/${b.name}/yank/2.0.0`);
    expect((await reads(s.url, p2(b.name), b.auth)).map((a) => versionsOf(a, b.name))).toEqual(
      all(['1.0.0', '1.1.0']),
    );
    await s.api('POST', `/packages/${b.name}/unyank/2.0.0`);
    expect((await reads(s.url, p2(b.name), b.auth)).map((a) => versionsOf(a, b.name))).toEqual(
      all(VERSIONS),
    );
  });

  it('marks a deprecated version "deprecated": true', async () => {
    const b = await granted();
    await s.api('POST', `/packages/${b.name}/deprecate/1.1.0`);
    const deprecated = (answer: Answer) => {
      if (answer.status !== 200) return `status ${answer.status}`;
      const doc = JSON.parse(answer.body) as {
        packages: Record<string, { version: string; deprecated?: boolean }[]>;
      };
      return (doc.packages[b.name] ?? [])
        .filter((e) => e.deprecated === true)
        .map((e) => e.version);
    };
    expect((await reads(s.url, p2(b.name), b.auth)).map(deprecated)).toEqual(all(['1.1.0']));
  });

  it('delivers customerActivity events to subscribers on every process', async () => {
    const SUBSCRIBERS = 4;
    const CREATIONS = 4;
    const clients: Client[] = [];
    type Event = { customerId: string; type: string };
    const heard: Event[][] = [];
    const failures: unknown[] = [];
    try {
      // Each WebSocket is a connection of its own: the subscribers spread over the processes.
      for (let i = 0; i < SUBSCRIBERS; i++) {
        const client = createClient({
          url: `${s.url.replace(/^http/, 'ws')}/graphql`,
          webSocketImpl: WebSocket,
          connectionParams: { Authorization: `Bearer ${ADMIN_TOKEN}` },
          retryAttempts: 0,
          lazy: true,
        });
        clients.push(client);
        const events: Event[] = [];
        heard.push(events);
        client.subscribe<{ customerActivity: Event }>(
          { query: 'subscription { customerActivity { customerId type } }' },
          {
            next: (value) => {
              if (value.data) events.push(value.data.customerActivity);
            },
            error: (err) => failures.push(err),
            complete: () => undefined,
          },
        );
      }
      // Until every subscription is live: tokens of a warm-up customer, on alternate processes,
      // until each subscriber has heard one (its own process's, at least).
      const warmUp = String(
        (await s.api('POST', '/customers', { name: 'W', email: 'w@x.test' })).id,
      );
      await waitFor(
        async () => {
          await s.api('POST', `/customers/${warmUp}/tokens`, { name: unique('w') });
          return heard.map((events) => events.filter((e) => e.customerId === warmUp).length);
        },
        (counts) => counts.every((n) => n > 0) || failures.length > 0,
        { timeoutMs: 20_000, intervalMs: 100 },
      );
      expect(failures).toEqual([]);

      const customer = String(
        (await s.api('POST', '/customers', { name: 'Heard', email: 'heard@x.test' })).id,
      );
      for (let i = 0; i < CREATIONS; i++) {
        await s.api('POST', `/customers/${customer}/tokens`, { name: `t${i}` });
      }
      const counts = () =>
        heard.map(
          (events) =>
            events.filter((e) => e.customerId === customer && e.type === 'TOKEN_CREATED').length,
        );
      await waitFor(
        async () => counts(),
        (c) => c.every((n) => n >= CREATIONS),
        { timeoutMs: 5_000, intervalMs: 20 },
      ).catch(() => undefined);
      // Nothing more arrives later: each event once per subscriber.
      await sleep(300);
      expect(counts()).toEqual(Array<number>(SUBSCRIBERS).fill(CREATIONS));
      expect(failures).toEqual([]);
    } finally {
      await Promise.all(clients.map(async (c) => c.dispose()));
    }
  });
});

const BASE_DOMAIN = 'coherence.test';
const PLATFORM_TOKEN = 'platform-token-coherence-0123456789';
const PLANS = {
  roomy: {
    bandwidth_bytes: 1_000_000_000,
    storage_bytes: null,
    packages: null,
    customers: null,
    graphql_complexity: null,
  },
  tiny: {
    bandwidth_bytes: 123_456,
    storage_bytes: null,
    packages: null,
    customers: 1,
    graphql_complexity: 100,
  },
};

describe(`EDITION=cloud with WEB_CONCURRENCY=${CONCURRENCY}: a tenant change is served by every process once its call answered`, () => {
  let s: Serve;
  let platform: Api;

  beforeAll(async () => {
    s = await startServe({
      label: 'coherence-cloud',
      concurrency: CONCURRENCY,
      env: {
        EDITION: 'cloud',
        BASE_DOMAIN,
        PLATFORM_ADMIN_TOKEN: PLATFORM_TOKEN,
        CLOUD_PLANS: JSON.stringify(PLANS),
      },
    });
    platform = apiClient(s.url, {
      host: `${BASE_DOMAIN}:${s.port}`,
      authorization: `Bearer ${PLATFORM_TOKEN}`,
    });
  }, 120_000);

  afterAll(async () => {
    await s?.stop();
  }, 60_000);

  /** A tenant (on `plan`) with a package granted to a customer, its host and its owner's API. */
  async function tenant(plan: keyof typeof PLANS = 'roomy') {
    const subdomain = unique('co');
    const created = await platform('POST', '/tenants', { name: subdomain, subdomain, plan });
    const host = `${subdomain}.${BASE_DOMAIN}:${s.port}`;
    const ownerHeaders = { host, authorization: `Bearer ${String(created.owner_token)}` };
    const owner = apiClient(s.url, ownerHeaders);
    const name = 'acme/lib';
    await artifactPackage(owner, name);
    const b = await buyer(owner, { [name]: '*' });
    await settle();
    return {
      id: String(created.tenant.id),
      host,
      owner,
      ownerHeaders,
      name,
      customerId: b.id,
      tokenId: b.tokenId,
      composer: { ...b.auth, host },
    };
  }

  it('refuses every route of a suspended tenant (403 TENANT_SUSPENDED), and serves it once reactivated', async () => {
    const t = await tenant();
    await warm(s.url, [p2(t.name), '/packages.json'], t.composer);
    await warm(s.url, ['/api/v1/packages'], t.ownerHeaders);
    await platform('POST', `/tenants/${t.id}/suspend`);
    const p2Answers = await reads(s.url, p2(t.name), t.composer);
    expect(p2Answers.map((a) => `${a.status} ${codeOf(a)}`)).toEqual(all('403 TENANT_SUSPENDED'));
    const adminAnswers = await reads(s.url, '/api/v1/packages', t.ownerHeaders);
    expect(adminAnswers.map((a) => `${a.status} ${codeOf(a)}`)).toEqual(
      all('403 TENANT_SUSPENDED'),
    );
    await platform('POST', `/tenants/${t.id}/reactivate`);
    expect((await reads(s.url, p2(t.name), t.composer)).map((a) => versionsOf(a, t.name))).toEqual(
      all(VERSIONS),
    );
    expect(statuses(await reads(s.url, '/api/v1/packages', t.ownerHeaders))).toEqual(all(200));
  });

  it("applies a tenant's new plan at once: its limits, and PLAN_LIMIT_REACHED", async () => {
    // One customer exists (tenant() made it): the tiny plan allows no second one.
    const t = await tenant('roomy');
    const dist = `/dist/${t.name}/1.0.0.zip`;
    const limitOf = (a: Answer) =>
      a.status === 200
        ? (JSON.parse(a.body) as { limits: { bandwidth_bytes: number | null } }).limits
            .bandwidth_bytes
        : `status ${a.status}`;
    expect((await reads(s.url, '/api/v1/license', t.ownerHeaders, WARM)).map(limitOf)).toEqual(
      all(PLANS.roomy.bandwidth_bytes, WARM),
    );
    expect(
      (await reads(s.url, dist, t.composer, WARM)).map((a) => a.headers['x-bandwidth-limit']),
    ).toEqual(all(String(PLANS.roomy.bandwidth_bytes), WARM));
    await platform('POST', `/tenants/${t.id}/change-plan`, { plan: 'tiny' });
    expect((await reads(s.url, '/api/v1/license', t.ownerHeaders)).map(limitOf)).toEqual(
      all(PLANS.tiny.bandwidth_bytes),
    );
    expect(
      (await reads(s.url, dist, t.composer)).map((a) => a.headers['x-bandwidth-limit']),
    ).toEqual(all(String(PLANS.tiny.bandwidth_bytes)));
    const creates: Answer[] = [];
    for (let i = 0; i < 4; i++) {
      creates.push(
        await fresh(
          `${s.url}/api/v1/customers`,
          { ...t.ownerHeaders, 'content-type': 'application/json' },
          'POST',
          Buffer.from(JSON.stringify({ name: `Extra ${i}`, email: `extra${i}@example.test` })),
        ),
      );
    }
    expect(creates.map((a) => `${a.status} ${codeOf(a)}`)).toEqual(
      all('403 PLAN_LIMIT_REACHED', 4),
    );
  });

  it("refuses a tenant's revoked token on its host (401)", async () => {
    const t = await tenant();
    await warm(s.url, [p2(t.name), '/packages.json'], t.composer);
    await t.owner('DELETE', `/customers/${t.customerId}/tokens/${t.tokenId}`);
    expect(statuses(await reads(s.url, p2(t.name), t.composer))).toEqual(all(401));
    expect(statuses(await reads(s.url, '/packages.json', t.composer))).toEqual(all(401));
  });
});
