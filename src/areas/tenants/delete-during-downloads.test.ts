import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, createTestApp, waitFor } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { TENANT_TABLES } from '../../infra/db/tenant-scope.js';
import { packageZip } from '../artifacts/test-zips.js';

const PLATFORM = 'platform-token-0123456789abcdef';
const platform = { authorization: `Bearer ${PLATFORM}`, host: 'packyard.test' };
const LOOPS = 4;

describe('deleting a Cloud tenant while its customers download', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ EDITION: 'cloud', PLATFORM_ADMIN_TOKEN: PLATFORM });
  });
  afterAll(async () => t.close());

  /** A tenant with one archive and a customer allowed to download it: its dist URL and auth. */
  const downloadingTenant = async (subdomain: string) => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/tenants',
      headers: platform,
      payload: { name: subdomain, subdomain },
    });
    const { tenant, owner_token } = created.json<{
      tenant: { id: string };
      owner_token: string;
    }>();
    const host = `${subdomain}.packyard.test`;
    const owner = { host, authorization: `Bearer ${owner_token}` };
    const call = (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: owner, payload });
    await call('/packages', { name: 'acme/lib', type: 'artifact' });
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/v1/packages/acme/lib/artifacts?version=1.0.0',
      headers: { ...owner, 'content-type': 'application/zip' },
      payload: packageZip({ name: 'acme/lib' }, { 'a.php': `<?php // ${subdomain}` }),
    });
    expect(up.statusCode, up.body).toBe(201);
    const customer = (await call('/customers', { name: 'C', email: 'c@x.test' })).json<{
      id: string;
    }>();
    await call(`/customers/${customer.id}/packages`, { package: 'acme/lib', constraint: '*' });
    const token = (await call(`/customers/${customer.id}/tokens`, { name: 't' })).json<{
      plain_token: string;
    }>();
    const headers = { host, authorization: basicAuth(token.plain_token) };
    const p2 = await t.app.inject({ url: '/p2/acme/lib.json', headers });
    const dist = new URL(p2.json().packages['acme/lib'][0].dist.url as string).pathname;
    return { id: tenant.id, headers, dist, statuses: [] as number[] };
  };

  const rowsOf = async (tenantId: string) => {
    const counts: Record<string, number> = {};
    for (const table of TENANT_TABLES) {
      const rows = await t.db
        .selectFrom(table as 'customers')
        .select('tenant_id')
        .where('tenant_id', '=', tenantId)
        .execute();
      if (rows.length > 0) counts[table] = rows.length;
    }
    return counts;
  };
  const archivesOf = async (tenantId: string) => {
    let n = 0;
    for await (const _ of t.runtime.services.deps.storage.list(`${tenantId}/`)) n += 1;
    return n;
  };

  it('leaves nothing of it behind and counts every download of the other exactly', async () => {
    const doomed = await downloadingTenant('doomed');
    const kept = await downloadingTenant('kept');
    let stop = false;
    // Each customer downloads until told to stop, or until its registry is gone.
    const loop = async (side: typeof doomed) => {
      while (!stop) {
        const res = await t.app.inject({ url: side.dist, headers: side.headers });
        side.statuses.push(res.statusCode);
        if (res.statusCode !== 200) return;
      }
    };
    const loops = [doomed, kept].flatMap((side) => Array.from({ length: LOOPS }, () => loop(side)));

    await waitFor(
      async () => doomed.statuses.filter((s) => s === 200).length,
      (n) => n >= 20,
    );
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/tenants/${doomed.id}`,
      headers: platform,
    });
    expect(deleted.statusCode).toBe(204);
    // Downloads go on while the removal task runs; it ends with the tenant row gone.
    await waitFor(
      async () =>
        (await t.db.selectFrom('tenants').select('id').where('id', '=', doomed.id).execute())
          .length,
      (n) => n === 0,
      { timeoutMs: 30_000 },
    );
    const servedBefore = kept.statuses.length;
    await waitFor(
      async () => kept.statuses.length,
      (n) => n >= servedBefore + 20,
    );
    stop = true;
    await Promise.all(loops);
    await t.runtime.services.composer.usage.flush();

    expect(new Set(doomed.statuses)).toEqual(new Set([200, 404]));
    expect(doomed.statuses.filter((s) => s === 404)).toHaveLength(LOOPS);
    expect(await rowsOf(doomed.id)).toEqual({});
    expect(await archivesOf(doomed.id)).toBe(0);

    expect(new Set(kept.statuses)).toEqual(new Set([200]));
    const counted = await t.db
      .selectFrom('downloads')
      .select((eb) => eb.fn.sum<number>('count').as('n'))
      .where('tenant_id', '=', kept.id)
      .executeTakeFirstOrThrow();
    expect(Number(counted.n)).toBe(kept.statuses.length);
    expect(await archivesOf(kept.id)).toBe(1);
  }, 120_000);
});
