import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { adminApi, createCustomer, waitForSync } from '../../../test/factories.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import { basicAuth, createTestApp, graphql, waitFor } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { recordingFront, versionsOf } from '../../../test/proxy-helpers.js';
import { proxyBannerLines } from './banner.js';
import { UpstreamClient } from './upstream.js';

/**
 * One Packyard (B) proxying another (A) through A's change log, with a customer token of A in
 * PROXY_UPSTREAM_URL (docs/proxy.md, "Another Packyard as upstream"). A sits behind a recording
 * front, so what B asks A, and with which credentials, is seen from outside both.
 */
let a: TestApp;
let b: TestApp;
let front: Awaited<ReturnType<typeof recordingFront>>;
let secret: string;
let auth: { authorization: string };
const repos: GitFixture[] = [];
const logged: string[] = [];

function repo(name: string, versions: string[]): GitFixture {
  const r = new GitFixture(name);
  for (const v of versions) r.release(v);
  repos.push(r);
  return r;
}

beforeAll(async () => {
  front = await recordingFront();
  a = await createTestApp({ BASE_URL: front.url });
  await a.app.listen({ port: 0, host: '127.0.0.1' });
  front.forwardTo((a.app.server.address() as AddressInfo).port);
  const apiA = adminApi(a);
  for (const name of ['acme/chain', 'acme/other']) {
    await apiA('POST', '/api/v1/packages', {
      name,
      repository_url: repo(name, ['1.0.0']).url,
      type: 'git',
    });
    await waitForSync(a, name);
  }
  const customer = await createCustomer(a, 'Mirror');
  for (const name of ['acme/chain', 'acme/other']) {
    await apiA('POST', `/api/v1/customers/${customer.id}/packages`, { package: name });
  }
  const token = (await apiA('POST', `/api/v1/customers/${customer.id}/tokens`, { name: 'b' })) as {
    plain_token: string;
  };
  secret = token.plain_token;

  // A TTL of 0: without the change log, B would ask A again on every request.
  const upstreamUrl = front.url.replace('http://', `http://token:${secret}@`);
  b = await createTestApp({ PROXY_UPSTREAM_URL: upstreamUrl, PROXY_METADATA_TTL_SECONDS: '0' });
  const log = b.runtime.services.deps.log;
  for (const level of ['error', 'warn', 'info', 'debug'] as const) {
    // What B would log, kept to be searched for the token (test apps log nothing otherwise).
    vi.spyOn(log, level).mockImplementation((...args: unknown[]) => {
      logged.push(JSON.stringify(args, (_k, v: unknown) => (v instanceof Error ? v.message : v)));
    });
  }
  const c = await createCustomer(b, 'Buyer');
  const created = (await adminApi(b)('POST', `/api/v1/customers/${c.id}/tokens`, {
    name: 't',
  })) as { plain_token: string };
  auth = { authorization: basicAuth(created.plain_token) };
});

afterAll(async () => {
  await b?.close();
  await a?.close();
  await front?.close();
  for (const r of repos) r.remove();
});

const get = (url: string) => b.app.inject({ url, headers: auth });
const p2Asked = (name: string) =>
  front.requests.filter((r) => r.path.split('?')[0] === `/p2/${name}.json`).length;

describe('a Packyard whose proxy upstream is another Packyard', () => {
  it('sends the customer token as HTTP Basic on every request, archives included', async () => {
    const chain = await get('/p2/acme/chain.json');
    expect(chain.statusCode).toBe(200);
    expect(versionsOf(chain, 'acme/chain')).toEqual(['1.0.0']);
    expect((await get('/p2/acme/other.json')).statusCode).toBe(200);
    const dist = (chain.json().packages['acme/chain'][0] as { dist: { url: string } }).dist.url;
    expect(dist).toContain('/dist-proxy/acme/chain/');
    const zip = await get(new URL(dist).pathname);
    expect(zip.statusCode).toBe(200);
    expect(zip.rawPayload.subarray(0, 2).toString()).toBe('PK');

    const paths = front.requests.map((r) => r.path.split('?')[0]);
    expect(paths).toContain('/packages.json');
    expect(paths).toContain('/metadata/changes.json');
    expect(paths.some((p) => p?.startsWith('/dist/acme/chain/'))).toBe(true);
    expect(new Set(front.requests.map((r) => r.authorization))).toEqual(
      new Set([basicAuth(secret)]),
    );
  });

  it('shows a new tag of A once A’s change log names it, asking A only for that package', async () => {
    // The change log's timestamp trails the clock (docs/composer.md): A's first syncs stay in
    // B's window for a few seconds. Once they have left it, B asks A for no document.
    await waitFor(
      async () => {
        const before = p2Asked('acme/other') + p2Asked('acme/chain');
        await get('/p2/acme/other.json');
        await get('/p2/acme/chain.json');
        return p2Asked('acme/other') + p2Asked('acme/chain') === before;
      },
      (quiet) => quiet,
      { timeoutMs: 20_000, intervalMs: 200 },
    );

    repos[0]!.release('1.1.0');
    await adminApi(a)('POST', '/api/v1/packages/acme/chain/sync');
    await waitFor(
      () => waitForSync(a, 'acme/chain'),
      (pkg: { versions?: unknown[]; versions_count?: number }) =>
        JSON.stringify(pkg).includes('1.1.0'),
      { timeoutMs: 20_000, intervalMs: 50 },
    );
    const other = p2Asked('acme/other');
    const chain = p2Asked('acme/chain');
    const fresh = await get('/p2/acme/chain.json');
    expect(versionsOf(fresh, 'acme/chain').sort()).toEqual(['1.0.0', '1.1.0']);
    expect((await get('/p2/acme/other.json')).statusCode).toBe(200);
    expect(p2Asked('acme/chain')).toBe(chain + 1);
    expect(p2Asked('acme/other')).toBe(other);
  });

  it('never shows the token: status, GraphQL, banner, alerts, events, errors, logs, metrics', async () => {
    const masked = front.url.replace('http://', 'http://token:***@');
    const status = (await adminApi(b)('GET', '/api/v1/proxy/status')) as { upstream_url: string };
    expect(status.upstream_url).toBe(masked);
    const gql = await graphql(b, '{ proxyStatus { upstreamUrl upstreams } }');
    expect(JSON.stringify(gql)).toContain(masked);
    expect(proxyBannerLines(b.config).join('\n')).toContain(masked);

    // A goes away: B's answers, alerts and events about it.
    await front.close();
    const failed = await get('/p2/acme/never-kept.json');
    expect(failed.statusCode).toBe(502);
    const alerts = await adminApi(b)('GET', '/api/v1/proxy/alerts');
    const events = await adminApi(b)('GET', '/api/v1/events');
    expect(JSON.stringify(alerts)).toContain(masked);
    expect(JSON.stringify(events)).toContain(masked);
    const metrics = await b.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' });
    for (const text of [
      failed.body,
      JSON.stringify(status),
      JSON.stringify(gql),
      JSON.stringify(alerts),
      JSON.stringify(events),
      metrics.body,
      proxyBannerLines(b.config).join('\n'),
      ...logged,
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('sends the credentials to the upstream’s origin only, never to another archive host', async () => {
    const seen: (string | null)[] = [];
    const other = http.createServer((req, res) => {
      seen.push(req.headers.authorization ?? null);
      res.end(Buffer.concat([Buffer.from('PK\x05\x06', 'latin1'), Buffer.alloc(18)]));
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const port = (other.address() as AddressInfo).port;
      const client = new UpstreamClient({
        ...b.config.proxy,
        upstreamUrl: 'http://127.0.0.1:1',
        upstreamCredentials: { username: 'token', password: 'x' },
        blockPrivateHosts: false,
      });
      const download = await client.archive(`http://127.0.0.1:${port}/a.zip`);
      for await (const chunk of download.body) void chunk;
      download.done();
      expect(seen).toEqual([null]);
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });
});
