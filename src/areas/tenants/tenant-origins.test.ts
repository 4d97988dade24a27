import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, cloudTenant } from '../../../test/helpers.js';
import { proxiedApp } from '../../../test/proxy-helpers.js';
import type { Proxied } from '../../../test/proxy-helpers.js';
import { packageZip } from '../artifacts/test-zips.js';

/** docs/cloud.md: a tenant's absolute URLs (dist, dist-proxy, advisories) use its own host. */
describe("a Cloud tenant's absolute URLs", () => {
  let p: Proxied;
  beforeAll(async () => {
    p = await proxiedApp({ EDITION: 'cloud', WORKER: 'off' });
  });
  afterAll(async () => p.close());

  it('point at its own host in proxied documents and in advisories', async () => {
    const tenants = [await cloudTenant(p.t, 'north'), await cloudTenant(p.t, 'south')];
    for (const tenant of tenants) {
      const call = (method: 'POST', url: string, payload: object) =>
        p.t.app.inject({ method, url: `/api/v1${url}`, headers: tenant.admin, payload });
      await call('POST', '/packages', { name: 'acme/lib', type: 'artifact' });
      const up = await p.t.app.inject({
        method: 'POST',
        url: '/api/v1/packages/acme/lib/artifacts?version=1.0.0',
        headers: { ...tenant.admin, 'content-type': 'application/zip' },
        payload: packageZip({ name: 'acme/lib' }, { 'a.php': '<?php' }),
      });
      expect(up.statusCode, up.body).toBe(201);
      const advisory = await call('POST', '/advisories', {
        package: 'acme/lib',
        title: 'Flaw',
        affected_versions: '<2.0',
      });
      expect(advisory.statusCode, advisory.body).toBe(201);
      const customer = (await call('POST', '/customers', { name: 'C', email: 'c@x.test' })).json<{
        id: string;
      }>();
      await call('POST', `/customers/${customer.id}/packages`, {
        package: 'acme/lib',
        constraint: '*',
      });
      const token = (await call('POST', `/customers/${customer.id}/tokens`, { name: 't' })).json<{
        plain_token: string;
      }>();
      const composer = { host: tenant.host, authorization: basicAuth(token.plain_token) };
      const origin = `http://${tenant.host}`;

      const proxied = await p.get('/p2/psr/log.json', composer);
      expect(proxied.statusCode, proxied.body).toBe(200);
      for (const v of proxied.json().packages['psr/log'] as { dist: { url: string } }[]) {
        expect(v.dist.url.startsWith(`${origin}/dist-proxy/`), v.dist.url).toBe(true);
      }
      const own = await p.get('/p2/acme/lib.json', composer);
      expect(own.json()['security-advisories']).toMatchObject([{ composerRepository: origin }]);
      const feed = await p.get('/api/security-advisories/acme/lib.json', composer);
      expect(feed.statusCode, feed.body).toBe(200);
      expect(feed.json().advisories['acme/lib']).toMatchObject([{ composerRepository: origin }]);
      const all = await p.get('/security-advisories.json', composer);
      expect(JSON.stringify(all.json())).not.toContain('http://packyard.test"');
      expect(all.json().advisories['acme/lib']).toMatchObject([{ composerRepository: origin }]);
    }
  });
});
