import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxiedApp, versionsOf } from '../../../test/proxy-helpers.js';
import type { Proxied } from '../../../test/proxy-helpers.js';
import { createTestApp } from '../../../test/helpers.js';
import { FakePackagist } from '../../../test/fakes/packagist.js';
import { adminApi, createCustomer } from '../../../test/factories.js';
import { basicAuth } from '../../../test/helpers.js';

let p: Proxied;
let auth: { authorization: string };

beforeAll(async () => {
  p = await proxiedApp({
    PROXY_METADATA_TTL_SECONDS: '0',
    PROXY_TIMEOUT_SECONDS: '1',
    PROXY_MAX_DOCUMENT_BYTES: String(1024 * 1024),
  });
  auth = (await p.customer()).auth;
});
afterAll(async () => p.close());

const alerts = async () =>
  ((await p.api('GET', '/api/v1/proxy/alerts')).data as { type: string }[]).map((a) => a.type);

describe('the proxy when the upstream fails', () => {
  it('serves stale metadata while the upstream is down, with one alert per outage', async () => {
    expect((await p.get('/p2/psr/log.json', auth)).statusCode).toBe(200);
    p.upstream.mode = 'error-500';
    for (let i = 0; i < 3; i++) {
      const res = await p.get('/p2/psr/log.json', { ...auth });
      expect(res.statusCode).toBe(200);
      expect(versionsOf(res, 'psr/log')).toContain('3.0.0');
      await p.api('POST', '/api/v1/proxy/purge', { package: 'nobody/else' }); // forgets answers
    }
    const nothing = await p.get('/p2/monolog/monolog.json', auth);
    expect(nothing.statusCode).toBe(502);
    expect(nothing.json()).toMatchObject({ code: 'UPSTREAM_ERROR', error: 'upstream_error' });
    expect(await alerts()).toEqual(['upstream_unreachable']);
    const status = await p.api('GET', '/api/v1/proxy/status');
    expect(status.upstream_reachable).toBe(false);
    expect(status.last_error).toMatch(/500/);
    const stats = await p.api('GET', '/api/v1/proxy/stats');
    expect(stats.stale_served).toBeGreaterThan(0);
    expect(stats.upstream_errors).toBeGreaterThan(0);

    p.upstream.mode = 'ok';
    expect((await p.get('/p2/monolog/monolog.json', auth)).statusCode).toBe(200);
    expect(await alerts()).toEqual(['upstream_recovered', 'upstream_unreachable']);
  });

  it('answers 404 for a name the upstream does not know', async () => {
    const res = await p.get('/p2/nobody/nothing.json', auth);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
  });

  it('turns malformed, oversized, hanging and redirecting upstreams into clear errors', async () => {
    for (const [mode, name] of [
      ['malformed', 'a/one'],
      ['huge', 'a/two'],
      ['hang', 'a/three'],
      ['redirect-offhost', 'a/four'],
    ] as const) {
      p.upstream.setPackage(name, [{ version: '1.0.0' }]);
      p.upstream.mode = mode;
      const res = await p.get(`/p2/${name}.json`, auth);
      expect(res.statusCode, `${mode}: ${res.body}`).toBe(502);
      expect(res.json().code).toBe('UPSTREAM_ERROR');
      p.upstream.mode = 'ok';
      // Nothing corrupt was kept: the next good answer is served whole.
      const good = await p.get(`/p2/${name}.json`, auth);
      expect(versionsOf(good, name)).toEqual(['1.0.0']);
    }
  });

  it('refuses an archive that is not a zip, keeps nothing, and fetches it again later', async () => {
    await p.get('/p2/monolog/monolog.json', auth);
    const ref = p.upstream.reference('monolog/monolog', '3.5.0');
    const url = `/dist-proxy/monolog/monolog/3.5.0.0/${ref}.zip`;
    p.upstream.mode = 'not-zip';
    const bad = await p.get(url, auth);
    expect(bad.statusCode).toBe(502);
    expect(bad.json().code).toBe('UPSTREAM_ERROR');
    p.upstream.mode = 'ok';
    const good = await p.get(url, auth);
    expect(good.statusCode).toBe(200);
    expect(good.rawPayload.equals(p.upstream.zip('monolog/monolog', '3.5.0'))).toBe(true);
    expect(p.upstream.count(`/dist/monolog/monolog/${ref}`)).toBe(2);
  });

  it('serves kept archives and metadata with the upstream stopped', async () => {
    const ref = p.upstream.reference('monolog/monolog', '3.5.0');
    await p.upstream.stop();
    const res = await p.get(`/dist-proxy/monolog/monolog/3.5.0.0/${ref}.zip`, auth);
    expect(res.statusCode).toBe(200);
    expect((await p.get('/p2/monolog/monolog.json', auth)).statusCode).toBe(200);
    const uncached = await p.get('/p2/never/fetched.json', auth);
    expect(uncached.statusCode).toBe(502);
  });
});

describe('the proxy outside its edition or switched off', () => {
  it('is FEATURE_NOT_AVAILABLE on community and asks no upstream for public names', async () => {
    const upstream = new FakePackagist();
    await upstream.start();
    const t = await createTestApp({ EDITION: 'community', PROXY_UPSTREAM_URL: upstream.url });
    try {
      const c = await createCustomer(t, 'Community');
      const token = await adminApi(t)('POST', `/api/v1/customers/${c.id}/tokens`, { name: 't' });
      const headers = { authorization: basicAuth(token.plain_token) };
      for (const url of ['/api/v1/proxy/status', '/dist-proxy/psr/log/1.0.0.0/abc.zip']) {
        const res = await t.app.inject({
          url,
          headers: url.startsWith('/api') ? t.admin : headers,
        });
        expect(res.statusCode, url).toBe(403);
        expect(res.json().code).toBe('FEATURE_NOT_AVAILABLE');
      }
      expect((await t.app.inject({ url: '/p2/psr/log.json', headers })).statusCode).toBe(404);
      const root = await t.app.inject({ url: '/packages.json', headers });
      expect(root.json()['available-packages']).toEqual([]);
      expect(upstream.requests).toEqual([]);
    } finally {
      await t.close();
      await upstream.stop();
    }
  });

  it('reports enabled: false with PROXY_UPSTREAM_URL=off', async () => {
    const t = await createTestApp({ PROXY_UPSTREAM_URL: 'off' });
    try {
      const res = await t.app.inject({ url: '/api/v1/proxy/status', headers: t.admin });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ enabled: false, upstream_url: null, cached_packages: 0 });
    } finally {
      await t.close();
    }
  });
});

describe('who sees public names', () => {
  it('with PROXY_VISIBILITY=granted refuses ungranted public names and keeps the list', async () => {
    const g = await proxiedApp({ PROXY_VISIBILITY: 'granted' });
    try {
      const c = await g.customer();
      const res = await g.get('/p2/psr/log.json', c.auth);
      expect(res.statusCode).toBe(403);
      expect(g.upstream.requests).toEqual([]);
      const root = await g.get('/packages.json', c.auth);
      expect(root.json()['available-packages']).toEqual([]);
      expect((await g.api('GET', '/api/v1/proxy/status')).visibility).toBe('granted');
    } finally {
      await g.close();
    }
  });

  it('asks for branches only when Composer does, and refuses bad settings', async () => {
    const before = p.upstream.count('/p2/psr/log~dev.json');
    await p.get('/p2/psr/log.json', auth);
    expect(p.upstream.count('/p2/psr/log~dev.json')).toBe(before);
    const { loadConfig } = await import('../../config/index.js');
    expect(() => loadConfig({ PROXY_VISIBILITY: 'some' })).toThrow(/PROXY_VISIBILITY/);
    expect(() => loadConfig({ PROXY_UPSTREAM_URL: 'ftp://x' })).toThrow(/PROXY_UPSTREAM_URL/);
    expect(loadConfig({}).proxy).toMatchObject({
      upstreamUrl: 'https://repo.packagist.org',
      metadataTtlSeconds: 300,
      visibility: 'all',
    });
    expect(loadConfig({ PROXY_UPSTREAM_URL: 'off' }).proxy.upstreamUrl).toBeNull();
  });
});
