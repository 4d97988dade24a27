import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestApp, waitFor } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { packageZip } from '../artifacts/test-zips.js';

const PLATFORM = 'platform-token-0123456789abcdef';

describe('the platform API (Cloud)', () => {
  let t: TestApp;
  const platform = { authorization: `Bearer ${PLATFORM}`, host: 'packyard.test' };

  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = platform,
  ) => t.app.inject({ method, url: `/api/v1${url}`, headers, payload: payload as object });

  const createTenant = async (subdomain: string, extra: Record<string, unknown> = {}) => {
    const res = await call('POST', '/tenants', {
      name: `Vendor ${subdomain}`,
      subdomain,
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ tenant: { id: string; plan: string }; owner_token: string }>();
  };

  beforeAll(async () => {
    t = await createTestApp({
      EDITION: 'cloud',
      PLATFORM_ADMIN_TOKEN: PLATFORM,
      CLOUD_PLANS: JSON.stringify({
        starter: { packages: 25, customers: 50 },
        business: {},
        enterprise: {},
        tiny: { packages: 1, customers: 2, storage_bytes: 1000000 },
      }),
    });
  });
  afterAll(async () => t.close());

  it('answers only PLATFORM_ADMIN_TOKEN, on any host', async () => {
    expect((await call('GET', '/tenants', undefined, { host: 'packyard.test' })).statusCode).toBe(
      401,
    );
    const root = await call('GET', '/tenants', undefined, {
      host: 'packyard.test',
      authorization: `Bearer ${ADMIN_TOKEN}`,
    });
    expect(root.statusCode).toBe(401);
    expect(root.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    const elsewhere = await call('GET', '/tenants', undefined, { ...platform, host: '10.1.2.3' });
    expect(elsewhere.statusCode).toBe(200);
  });

  it('creates a tenant with its owner token shown once, usable on its own host', async () => {
    const created = await createTenant('acme');
    expect(created.tenant).toEqual({
      id: expect.any(String),
      name: 'Vendor acme',
      subdomain: 'acme',
      plan: 'starter',
      status: 'active',
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    expect(created.owner_token).toMatch(/^cma_/);
    const owner = { host: 'acme.packyard.test', authorization: `Bearer ${created.owner_token}` };
    expect((await call('GET', '/customers', undefined, owner)).statusCode).toBe(200);
    const listed = await call('GET', '/tenants');
    expect(listed.json()).toMatchObject({ data: [created.tenant], pagination: { total: 1 } });
    expect(JSON.stringify(listed.json())).not.toContain(created.owner_token);
    expect((await call('GET', `/tenants/${created.tenant.id}`)).json()).toEqual(created.tenant);
  });

  it('refuses taken, reserved and malformed subdomains, unknown plans and fields', async () => {
    expect((await call('POST', '/tenants', { name: 'X', subdomain: 'acme' })).statusCode).toBe(409);
    for (const subdomain of ['www', 'admin', 'Bad_Sub', '-ab', 'a']) {
      const res = await call('POST', '/tenants', { name: 'X', subdomain });
      expect(res.statusCode, subdomain).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
    const plan = await call('POST', '/tenants', { name: 'X', subdomain: 'xx', plan: 'gold' });
    expect(plan.statusCode).toBe(400);
    expect(plan.json().details).toMatchObject([{ field: 'plan' }]);
    const extra = await call('POST', '/tenants', { name: 'X', subdomain: 'xy', owner: 'me' });
    expect(extra.statusCode).toBe(400);
  });

  it('renames, changes plan, suspends and reactivates; the host follows at once', async () => {
    const { tenant, owner_token } = await createTenant('beta', { plan: 'business' });
    expect(tenant.plan).toBe('business');
    const owner = { host: 'beta.packyard.test', authorization: `Bearer ${owner_token}` };
    expect(
      (await call('PATCH', `/tenants/${tenant.id}`, { name: 'Beta Inc' })).json(),
    ).toMatchObject({ name: 'Beta Inc' });
    const plan = await call('POST', `/tenants/${tenant.id}/change-plan`, { plan: 'enterprise' });
    expect(plan.json()).toMatchObject({ plan: 'enterprise' });
    expect(
      (await call('POST', `/tenants/${tenant.id}/change-plan`, { plan: 'gold' })).statusCode,
    ).toBe(400);
    expect((await call('GET', '/customers', undefined, owner)).statusCode).toBe(200);
    expect((await call('POST', `/tenants/${tenant.id}/suspend`)).json()).toMatchObject({
      status: 'suspended',
    });
    const suspended = await call('GET', '/customers', undefined, owner);
    expect(suspended.statusCode).toBe(403);
    expect(suspended.json()).toMatchObject({ code: 'TENANT_SUSPENDED' });
    await call('POST', `/tenants/${tenant.id}/reactivate`);
    expect((await call('GET', '/customers', undefined, owner)).statusCode).toBe(200);
    expect((await call('GET', '/tenants/nope')).statusCode).toBe(404);
  });

  it('deletes a tenant: its host is gone at once, then every row and archive; others keep theirs', async () => {
    const keep = await createTenant('keeper');
    const doomed = await createTenant('doomed');
    for (const [sub, token] of [
      ['keeper', keep.owner_token],
      ['doomed', doomed.owner_token],
    ] as const) {
      const owner = { host: `${sub}.packyard.test`, authorization: `Bearer ${token}` };
      expect(
        (await call('POST', '/customers', { name: 'C', email: 'c@x.test' }, owner)).statusCode,
      ).toBe(201);
      expect(
        (await call('POST', '/packages', { name: 'acme/lib', type: 'artifact' }, owner)).statusCode,
      ).toBe(201);
      const up = await t.app.inject({
        method: 'POST',
        url: '/api/v1/packages/acme/lib/artifacts?version=1.0.0',
        headers: { ...owner, 'content-type': 'application/zip' },
        payload: packageZip({ name: 'acme/lib' }, { 'a.php': `<?php // ${sub}` }),
      });
      expect(up.statusCode, up.body).toBe(201);
    }
    const archivesOf = async (id: string) => {
      let n = 0;
      for await (const _ of t.runtime.services.deps.storage.list(`${id}/`)) n += 1;
      return n;
    };
    expect(await archivesOf(doomed.tenant.id)).toBe(1);

    expect((await call('DELETE', `/tenants/${doomed.tenant.id}`)).statusCode).toBe(204);
    const gone = await call('GET', '/customers', undefined, {
      host: 'doomed.packyard.test',
      authorization: `Bearer ${doomed.owner_token}`,
    });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ code: 'TENANT_NOT_FOUND' });
    expect((await call('GET', `/tenants/${doomed.tenant.id}`)).statusCode).toBe(404);

    const rowsOf = async (id: string) => {
      const counts = await Promise.all(
        (['customers', 'packages', 'versions', 'team_tokens', 'audit_log'] as const).map(
          async (table) =>
            (await t.db.selectFrom(table).select('tenant_id').where('tenant_id', '=', id).execute())
              .length,
        ),
      );
      return counts.reduce((a, b) => a + b, 0);
    };
    await waitFor(
      async () =>
        (await t.db.selectFrom('tenants').select('id').where('id', '=', doomed.tenant.id).execute())
          .length,
      (n) => n === 0,
    );
    expect(await rowsOf(doomed.tenant.id)).toBe(0);
    expect(await archivesOf(doomed.tenant.id)).toBe(0);
    expect(await rowsOf(keep.tenant.id)).toBeGreaterThan(3);
    expect(await archivesOf(keep.tenant.id)).toBe(1);
    // The subdomain is free again.
    await createTenant('doomed');
  });

  it("reports the month's usage against the plan, and refuses one package or customer more", async () => {
    const { tenant, owner_token } = await createTenant('tiny', { plan: 'tiny' });
    const owner = { host: 'tiny.packyard.test', authorization: `Bearer ${owner_token}` };
    const add = (url: string, payload: object) => call('POST', url, payload, owner);
    expect((await add('/packages', { name: 'tiny/one', type: 'artifact' })).statusCode).toBe(201);
    const second = await add('/packages', { name: 'tiny/two', type: 'artifact' });
    expect(second.statusCode).toBe(403);
    expect(second.json()).toMatchObject({
      error: 'plan_limit_reached',
      code: 'PLAN_LIMIT_REACHED',
    });
    // Two customers created at once against a limit of two, then a third: exactly two exist.
    const made = await Promise.all(
      [1, 2, 3].map((i) => add('/customers', { name: `C${i}`, email: `c${i}@tiny.test` })),
    );
    expect(made.map((r) => r.statusCode).sort()).toEqual([201, 201, 403]);
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/v1/packages/tiny/one/artifacts?version=1.0.0',
      headers: { ...owner, 'content-type': 'application/zip' },
      payload: packageZip({ name: 'tiny/one' }, { 'a.php': '<?php' }),
    });
    expect(up.statusCode, up.body).toBe(201);

    const usage = await call('GET', `/tenants/${tenant.id}/usage`);
    expect(usage.statusCode, usage.body).toBe(200);
    expect(usage.json()).toEqual({
      tenant_id: tenant.id,
      plan: 'tiny',
      period: new Date().toISOString().slice(0, 7),
      usage: {
        bandwidth_bytes: 0,
        storage_bytes: expect.any(Number),
        packages: 1,
        customers: 2,
      },
      limits: { bandwidth_bytes: null, storage_bytes: 1000000, packages: 1, customers: 2 },
    });
    expect(usage.json().usage.storage_bytes).toBeGreaterThan(0);
    // Another plan lifts the limit at once.
    await call('POST', `/tenants/${tenant.id}/change-plan`, { plan: 'business' });
    expect((await add('/packages', { name: 'tiny/two', type: 'artifact' })).statusCode).toBe(201);
  });
});
