import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { proxiedApp } from '../../../test/proxy-helpers.js';
import { listEvents } from './store.js';

/** Events of background changes: the proxy's upstream, and Cloud usage thresholds. */
const opened: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const app of opened) await app.close();
});

const eventsOf = async (t: TestApp, tenantId: string, types: string[]) =>
  (await listEvents(t.runtime.services.deps.db, tenantId, { types, limit: 500 })).map((e) => [
    e.type,
    e.data,
  ]);

describe('events of background changes', () => {
  it('writes proxy.upstream_unreachable and proxy.upstream_recovered once per transition', async () => {
    const p = await proxiedApp({ PROXY_METADATA_TTL_SECONDS: '0', PROXY_TIMEOUT_SECONDS: '1' });
    opened.push(p);
    const auth = (await p.customer()).auth;
    expect((await p.get('/p2/psr/log.json', auth)).statusCode).toBe(200);
    p.upstream.mode = 'error-500';
    for (let i = 0; i < 3; i++) {
      await p.get('/p2/psr/log.json', auth);
      await p.api('POST', '/api/v1/proxy/purge', { package: 'nobody/else' });
    }
    p.upstream.mode = 'ok';
    expect((await p.get('/p2/monolog/monolog.json', auth)).statusCode).toBe(200);
    const types = ['proxy.upstream_unreachable', 'proxy.upstream_recovered'];
    const events = await eventsOf(p.t, 'default', types);
    const upstream_url = p.t.config.proxy.upstreamUrl;
    expect(events).toEqual([
      ['proxy.upstream_unreachable', { upstream_url }],
      ['proxy.upstream_recovered', { upstream_url }],
    ]);
  });

  it('writes usage.warning and usage.limit_reached once each in Cloud', async () => {
    const PLATFORM = 'platform-token-0123456789abcdef';
    const t = await createTestApp({
      EDITION: 'cloud',
      PLATFORM_ADMIN_TOKEN: PLATFORM,
      CLOUD_PLANS: JSON.stringify({ starter: {}, counted: { packages: 5 } }),
    });
    opened.push(t);
    const platform = { authorization: `Bearer ${PLATFORM}`, host: 'packyard.test' };
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/tenants',
      headers: platform,
      payload: { name: 'counted', subdomain: 'counted', plan: 'counted' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { tenant, owner_token } = res.json<{ tenant: { id: string }; owner_token: string }>();
    const owner = { host: 'counted.packyard.test', authorization: `Bearer ${owner_token}` };
    for (const n of [1, 2, 3, 4, 5]) {
      const added = await t.app.inject({
        method: 'POST',
        url: '/api/v1/packages',
        headers: owner,
        payload: { name: `c/p${n}`, type: 'artifact' },
      });
      expect(added.statusCode).toBe(201);
    }
    const events = await eventsOf(t, tenant.id, ['usage.warning', 'usage.limit_reached']);
    expect(events).toEqual([
      ['usage.warning', { metric: 'packages', percent: 80, value: 4, limit: 5 }],
      ['usage.limit_reached', { metric: 'packages', percent: 100, value: 5, limit: 5 }],
    ]);
  });
});
