import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxiedApp, versionsOf } from '../../../test/proxy-helpers.js';
import type { Proxied } from '../../../test/proxy-helpers.js';
import { insertPackageRow } from '../../../test/factories.js';

let p: Proxied;
let auth: { authorization: string };

beforeAll(async () => {
  p = await proxiedApp({ PROXY_METADATA_TTL_SECONDS: '0' });
  auth = (await p.customer()).auth;
});
afterAll(async () => p.close());

type Entry = { version: string; dist: { url: string; reference: string }; source: unknown };

describe('the proxy of a public Composer repository', () => {
  it('serves expanded upstream metadata with dist URLs on /dist-proxy', async () => {
    const res = await p.get('/p2/psr/log.json', auth);
    expect(res.statusCode).toBe(200);
    expect(versionsOf(res, 'psr/log')).toEqual(['3.0.0', '2.0.0', '1.1.4', '1.0.0']);
    const entries = res.json().packages['psr/log'] as (Entry & Record<string, unknown>)[];
    const v1 = entries.find((e) => e.version === '1.1.4')!;
    // Inherited through the minified chain: name, license, type, autoload.
    expect(v1).toMatchObject({ name: 'psr/log', type: 'library', license: ['MIT'] });
    expect(v1.require).toEqual({ php: '>=5.3.0' });
    expect(entries.find((e) => e.version === '1.0.0')!.require).toEqual({});
    const ref = p.upstream.reference('psr/log', '1.1.4');
    expect(v1.dist.url).toBe(`http://packyard.test/dist-proxy/psr/log/1.1.4.0/${ref}.zip`);
    expect(v1.source).toEqual({
      type: 'git',
      url: 'https://github.com/psr/log.git',
      reference: ref,
    });
    expect(res.headers['last-modified']).toBeTruthy();
    const again = await p.get('/p2/psr/log.json', {
      ...auth,
      'if-modified-since': String(res.headers['last-modified']),
    });
    expect(again.statusCode).toBe(304);
    const branches = await p.get('/p2/psr/log~dev.json', auth);
    expect(versionsOf(branches, 'psr/log')).toEqual(['dev-master']);
  });

  it('leaves available-packages out of packages.json, so Composer asks for public names', async () => {
    const res = await p.get('/packages.json', auth);
    expect(res.statusCode).toBe(200);
    expect(res.json()).not.toHaveProperty('available-packages');
  });

  it('fetches each archive upstream once, concurrent first requests included', async () => {
    const ref = p.upstream.reference('monolog/monolog', '2.9.2');
    await p.get('/p2/monolog/monolog.json', auth);
    const url = `/dist-proxy/monolog/monolog/2.9.2.0/${ref}.zip`;
    const answers = await Promise.all([1, 2, 3, 4].map(() => p.get(url, auth)));
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/zip');
      expect(res.headers['x-bandwidth-used']).toBeDefined();
      expect(res.rawPayload.equals(p.upstream.zip('monolog/monolog', '2.9.2'))).toBe(true);
    }
    expect(p.upstream.count(`/dist/monolog/monolog/${ref}`)).toBe(1);
    const stats = await p.api('GET', '/api/v1/proxy/stats');
    expect(stats.by_package).toContainEqual({ name: 'monolog/monolog', downloads: 4 });
    expect(stats.archive_misses).toBe(1);
    expect(stats.bytes_served).toBe(4 * p.upstream.zip('monolog/monolog', '2.9.2').length);
  });

  it('answers 404 for a reference absent from the kept metadata, without asking upstream', async () => {
    const before = p.upstream.requests.length;
    const bad = `/dist-proxy/psr/log/1.1.4.0/${'a'.repeat(40)}.zip`;
    expect((await p.get(bad, auth)).statusCode).toBe(404);
    expect((await p.get('/dist-proxy/nobody/never/1.0.0.0/abc.zip', auth)).statusCode).toBe(404);
    expect(p.upstream.requests.length).toBe(before);
    expect((await p.get('/p2/nobody/never.json', auth)).statusCode).toBe(404);
  });

  it('never asks the upstream for a private package name (no dependency confusion)', async () => {
    await insertPackageRow(p.t, 'acme/internal');
    p.upstream.setPackage('acme/internal', [{ version: '99.0.0' }]);
    const res = await p.get('/p2/acme/internal.json', auth);
    expect(res.statusCode).toBe(403);
    const ref = p.upstream.reference('acme/internal', '99.0.0');
    const dist = await p.get(`/dist-proxy/acme/internal/99.0.0.0/${ref}.zip`, auth);
    expect(dist.statusCode).toBe(404);
    expect(p.upstream.count('/p2/acme/internal')).toBe(0);
    expect(p.upstream.count('/dist/acme/internal')).toBe(0);
  });

  it('shows a new upstream version after the TTL, with a later Last-Modified', async () => {
    const first = await p.get('/p2/monolog/monolog.json', auth);
    p.upstream.addVersion('monolog/monolog', {
      version: '3.6.0',
      require: { php: '>=8.1', 'psr/log': '^2.0 || ^3.0' },
    });
    const next = await p.get('/p2/monolog/monolog.json', auth);
    expect(versionsOf(next, 'monolog/monolog')).toContain('3.6.0');
    const lm = (r: typeof first) => Date.parse(String(r.headers['last-modified']));
    expect(lm(next)).toBeGreaterThan(lm(first));
  });

  it('freezes a package past the TTL, unfreezes it, and purges spare frozen packages', async () => {
    await p.get('/p2/psr/log.json', auth);
    const frozen = await p.api('POST', '/api/v1/proxy/freeze/psr/log');
    expect(frozen).toMatchObject({ name: 'psr/log', frozen: true });
    expect(frozen.versions).toContain('3.0.0');
    p.upstream.addVersion('psr/log', { version: '3.0.2', require: { php: '>=8.0.0' } });
    const asked = p.upstream.count('/p2/psr/log.json');
    const res = await p.get('/p2/psr/log.json', auth);
    expect(versionsOf(res, 'psr/log')).not.toContain('3.0.2');
    expect(p.upstream.count('/p2/psr/log.json')).toBe(asked);

    const conflict = await p.t.app.inject({
      method: 'POST',
      url: '/api/v1/proxy/purge',
      headers: p.t.admin,
      payload: { package: 'psr/log' },
    });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().code).toBe('CONFLICT');
    const purged = await p.api('POST', '/api/v1/proxy/purge', {});
    expect(purged.purged_packages).toBeGreaterThanOrEqual(1);
    expect(purged.purged_archives).toBe(1);
    expect(purged.freed_bytes).toBe(p.upstream.zip('monolog/monolog', '2.9.2').length);
    const status = await p.api('GET', '/api/v1/proxy/status');
    expect(status).toMatchObject({ enabled: true, cached_packages: 1, frozen_packages: 1 });
    expect(status.cached_archives).toBe(0);

    await p.api('POST', '/api/v1/proxy/unfreeze/psr/log');
    expect(versionsOf(await p.get('/p2/psr/log.json', auth), 'psr/log')).toContain('3.0.2');
    const audit = await p.api('GET', '/api/v1/audit?per_page=100');
    const actions = (audit.data as { action: string }[]).map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['proxy.freeze', 'proxy.unfreeze', 'proxy.purge']),
    );
  });

  it('counts hits, misses and bytes, and answers the status in REST and GraphQL', async () => {
    const stats = await p.api('GET', '/api/v1/proxy/stats');
    expect(stats.metadata_misses).toBeGreaterThan(0);
    expect(stats.metadata_hits).toBeGreaterThan(0);
    expect(stats.bytes_from_upstream).toBeGreaterThan(0);
    expect(stats.upstream_errors).toBe(0);
    const status = await p.api('GET', '/api/v1/proxy/status');
    expect(status).toMatchObject({
      upstream_url: p.upstream.url,
      upstream_reachable: true,
      metadata_ttl_seconds: 0,
      visibility: 'all',
      last_error: null,
    });
    const gql = await p.t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: p.t.admin,
      payload: {
        query:
          '{ proxyStatus { enabled upstreamUrl upstreamReachable cachedPackages cachedArchives cachedBytes frozenPackages } }',
      },
    });
    expect(gql.json().data.proxyStatus).toEqual({
      enabled: true,
      upstreamUrl: p.upstream.url,
      upstreamReachable: true,
      cachedPackages: status.cached_packages,
      cachedArchives: status.cached_archives,
      cachedBytes: status.cached_bytes,
      frozenPackages: 0,
    });
  });

  it('lets viewers read and refuses their writes', async () => {
    const made = await p.api('POST', '/api/v1/team/tokens', { name: 'v', level: 'viewer' });
    const viewer = { authorization: `Bearer ${made.plain_token}` };
    expect((await p.get('/api/v1/proxy/status', viewer)).statusCode).toBe(200);
    expect((await p.get('/api/v1/proxy/alerts', viewer)).statusCode).toBe(200);
    const res = await p.t.app.inject({
      method: 'POST',
      url: '/api/v1/proxy/purge',
      headers: viewer,
    });
    expect(res.statusCode).toBe(403);
  });
});
