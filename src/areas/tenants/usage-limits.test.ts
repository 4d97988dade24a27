import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { packageZip } from '../artifacts/test-zips.js';

const PLATFORM = 'platform-token-0123456789abcdef';
const platform = { authorization: `Bearer ${PLATFORM}`, host: 'packyard.test' };

/** A zip whose size does not depend on compression luck: its file is random bytes. */
const zipOf = (name: string, seed: string) =>
  packageZip({ name }, { 'blob.txt': crypto.randomBytes(900).toString('base64') + seed });

// The archives are built first, so each plan's limits are set in whole archives.
const meteredZip = zipOf('m/lib', '1');
const storedZips = [zipOf('s/lib', '1'), zipOf('s/lib', '2'), zipOf('s/lib', '3')];
const SIZE = meteredZip.length;
const BANDWIDTH = 20 * SIZE;
const [s1, s2] = storedZips.map((z) => z.length) as [number, number];
// Two archives fit and pass 80 %; a third would pass the limit.
const STORAGE = Math.ceil((s1 + s2) / 0.85);

interface Notice {
  type: string;
  metric: string;
  percent: number;
  value: number;
  limit: number;
}

describe('Cloud plan usage: bandwidth, storage, counts and their notifications', () => {
  let t: TestApp;

  const call = (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = platform,
  ) => t.app.inject({ method, url: `/api/v1${url}`, headers, payload: payload as object });

  const tenant = async (subdomain: string, plan: string) => {
    const res = await call('POST', '/tenants', { name: subdomain, subdomain, plan });
    expect(res.statusCode, res.body).toBe(201);
    const { tenant, owner_token } = res.json<{ tenant: { id: string }; owner_token: string }>();
    const host = `${subdomain}.packyard.test`;
    return { id: tenant.id, host, owner: { host, authorization: `Bearer ${owner_token}` } };
  };

  const upload = (owner: Record<string, string>, name: string, version: string, zip: Buffer) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/packages/${name}/artifacts?version=${version}`,
      headers: { ...owner, 'content-type': 'application/zip' },
      payload: zip,
    });

  const notices = async (tenantId: string): Promise<Notice[]> => {
    await t.runtime.services.composer.usage.flush();
    const res = await call('GET', `/tenants/${tenantId}/notifications`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: Notice[] }>().data.map(({ type, metric, percent, value, limit }) => ({
      type,
      metric,
      percent,
      value,
      limit,
    }));
  };

  beforeAll(async () => {
    t = await createTestApp({
      EDITION: 'cloud',
      PLATFORM_ADMIN_TOKEN: PLATFORM,
      CLOUD_PLANS: JSON.stringify({
        starter: {},
        metered: { bandwidth_bytes: BANDWIDTH, storage_bytes: 10_000_000 },
        stored: { storage_bytes: STORAGE },
        counted: { packages: 5, customers: 10 },
        smaller: { packages: 2 },
      }),
    });
  });
  afterAll(async () => t.close());

  it('counts concurrent downloads exactly, warns at 80 %, and answers 429 past the plan bandwidth', async () => {
    const m = await tenant('metered', 'metered');
    const api = (method: 'POST', url: string, body: object) => call(method, url, body, m.owner);
    expect((await api('POST', '/packages', { name: 'm/lib', type: 'artifact' })).statusCode).toBe(
      201,
    );
    expect((await upload(m.owner, 'm/lib', '1.0.0', meteredZip)).statusCode).toBe(201);
    const customer = (await api('POST', '/customers', { name: 'C', email: 'c@m.test' })).json<{
      id: string;
    }>();
    await api('POST', `/customers/${customer.id}/packages`, { package: 'm/lib', constraint: '*' });
    const token = (await api('POST', `/customers/${customer.id}/tokens`, { name: 't' })).json<{
      plain_token: string;
    }>();
    const composer = { host: m.host, authorization: basicAuth(token.plain_token) };
    const p2 = await t.app.inject({ url: '/p2/m/lib.json', headers: composer });
    const distUrl = new URL(
      (p2.json().packages['m/lib'] as { dist: { url: string } }[])[0]!.dist.url,
    );
    expect(distUrl.host).toBe(m.host);
    const download = () => t.app.inject({ url: distUrl.pathname, headers: composer });
    const license = await call('GET', '/license', undefined, m.owner);
    expect(license.json().limits).toEqual({
      graphql_complexity: null,
      bandwidth_bytes: BANDWIDTH,
      storage_bytes: 10_000_000,
    });

    // 17 at once: 85 % of the plan, each counted once.
    const first = await Promise.all(Array.from({ length: 17 }, download));
    expect(first.map((r) => r.statusCode)).toEqual(Array(17).fill(200));
    expect(first[0]!.headers['x-bandwidth-limit']).toBe(String(BANDWIDTH));
    await t.runtime.services.composer.usage.flush();
    const usage = (await call('GET', `/tenants/${m.id}/usage`)).json();
    expect(usage.usage.bandwidth_bytes).toBe(17 * SIZE);
    expect(usage.limits.bandwidth_bytes).toBe(BANDWIDTH);
    // Raised by the write that passed 80 %, with the use it saw then.
    const [warning, ...rest] = await notices(m.id);
    expect(rest).toEqual([]);
    expect(warning).toEqual({
      type: 'usage_warning',
      metric: 'bandwidth_bytes',
      percent: 80,
      value: expect.any(Number),
      limit: BANDWIDTH,
    });
    expect(warning!.value).toBeGreaterThanOrEqual(0.8 * BANDWIDTH);
    expect(warning!.value).toBeLessThanOrEqual(17 * SIZE);

    // Three more reach the limit; the next one is refused.
    for (let i = 0; i < 3; i++) expect((await download()).statusCode).toBe(200);
    await t.runtime.services.composer.usage.flush();
    const refused = await download();
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
    const all = await notices(m.id);
    expect(all.map((n) => [n.type, n.metric, n.percent])).toEqual([
      ['usage_warning', 'bandwidth_bytes', 80],
      ['usage_limit_reached', 'bandwidth_bytes', 100],
    ]);
    expect(all[1]!.value).toBe(BANDWIDTH);
    const stats = await t.db
      .selectFrom('downloads')
      .select((eb) => eb.fn.sum<number>('count').as('n'))
      .where('tenant_id', '=', m.id)
      .executeTakeFirstOrThrow();
    expect(Number(stats.n)).toBe(20);
  });

  it('refuses an upload past the plan storage and keeps the earlier versions', async () => {
    const s = await tenant('stored', 'stored');
    await call('POST', '/packages', { name: 's/lib', type: 'artifact' }, s.owner);
    expect((await upload(s.owner, 's/lib', '1.0.0', storedZips[0]!)).statusCode).toBe(201);
    expect(await notices(s.id)).toEqual([]);
    expect((await upload(s.owner, 's/lib', '2.0.0', storedZips[1]!)).statusCode).toBe(201);
    expect(await notices(s.id)).toEqual([
      {
        type: 'usage_warning',
        metric: 'storage_bytes',
        percent: 80,
        value: s1 + s2,
        limit: STORAGE,
      },
    ]);
    const third = await upload(s.owner, 's/lib', '3.0.0', storedZips[2]!);
    expect(third.statusCode).toBe(409);
    expect(third.json().message).toMatch(/Storage limit reached/);
    const versions = await call('GET', '/packages/s/lib/versions?constraint=*', undefined, s.owner);
    expect(versions.statusCode, versions.body).toBe(200);
    expect(
      versions
        .json()
        .versions.map((v: { version: string }) => v.version)
        .sort(),
    ).toEqual(['1.0.0', '2.0.0']);
    const usage = (await call('GET', `/tenants/${s.id}/usage`)).json();
    expect(usage.usage.storage_bytes).toBe(s1 + s2);
  });

  it('raises each count notification once per month, and at once on a smaller plan', async () => {
    const c = await tenant('counted', 'counted');
    const add = (n: number) =>
      call('POST', '/packages', { name: `c/p${n}`, type: 'artifact' }, c.owner);
    for (const n of [1, 2, 3]) expect((await add(n)).statusCode).toBe(201);
    expect(await notices(c.id)).toEqual([]);
    expect((await add(4)).statusCode).toBe(201);
    expect((await notices(c.id)).map((n) => [n.type, n.metric, n.value, n.limit])).toEqual([
      ['usage_warning', 'packages', 4, 5],
    ]);
    expect((await add(5)).statusCode).toBe(201);
    expect((await add(6)).statusCode).toBe(403);
    // Below the limit and back: nothing is raised twice this month.
    expect((await call('DELETE', '/packages/c/p5', undefined, c.owner)).statusCode).toBe(204);
    expect((await add(5)).statusCode).toBe(201);
    expect((await notices(c.id)).map((n) => [n.type, n.metric, n.percent])).toEqual([
      ['usage_warning', 'packages', 80],
      ['usage_limit_reached', 'packages', 100],
    ]);

    // A jump past both thresholds (5 packages on a plan of 2) raises both for that plan's limit.
    const other = await tenant('jumper', 'counted');
    for (const n of [1, 2, 3]) {
      expect(
        (await call('POST', '/packages', { name: `j/p${n}`, type: 'artifact' }, other.owner))
          .statusCode,
      ).toBe(201);
    }
    await call('POST', `/tenants/${other.id}/change-plan`, { plan: 'smaller' });
    expect(await notices(other.id)).toEqual([
      { type: 'usage_warning', metric: 'packages', percent: 80, value: 3, limit: 2 },
      { type: 'usage_limit_reached', metric: 'packages', percent: 100, value: 3, limit: 2 },
    ]);
    expect((await call('GET', `/tenants/nope/notifications`)).statusCode).toBe(404);
    expect(
      (await call('GET', `/tenants/${other.id}/notifications`, undefined, other.owner)).statusCode,
    ).toBe(401);
  });
});
