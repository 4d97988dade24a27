import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import {
  adminApi,
  addSyncedPackage,
  createCustomer,
  waitForSync,
} from '../../../test/factories.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import { DEFAULT_TENANT_ID } from '../../infra/db/schema.js';
import { up as backfill } from '../../infra/db/migrations/2026-11-24-10-storage-counter.js';
import { packageZip } from '../artifacts/test-zips.js';
import { scanStorageUsed, storedStorageUsed, STORAGE_METRIC } from './storage-counter.js';

let t: TestApp;
const repos: GitFixture[] = [];
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
  repos.forEach((r) => r.remove());
});

const db = () => t.db;

/** The stored counter and the scan of the committed versions, which it must always equal. */
async function counterAndScan(tenantId = DEFAULT_TENANT_ID) {
  return {
    counter: await storedStorageUsed(db(), tenantId),
    scan: await scanStorageUsed(db(), tenantId),
  };
}

async function resync(name: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/packages/${name}/sync`,
    headers: t.admin,
  });
  expect(res.statusCode).toBeLessThan(300);
  const pkg = await waitForSync(t, name);
  expect(pkg.sync_status).toBe('ok');
}

describe('storage used is a stored counter', () => {
  it('equals the scan after syncs, uploads and deletes', async () => {
    expect(await counterAndScan()).toEqual({ counter: 0, scan: 0 });

    const repo = new GitFixture('acme/counted');
    repos.push(repo);
    repo.release('1.0.0').release('1.1.0');
    await addSyncedPackage(t, 'acme/counted', repo.url);
    const synced = await counterAndScan();
    expect(synced.scan).toBeGreaterThan(0);
    expect(synced.counter).toBe(synced.scan);

    // A release adds an archive; removing a tag removes one (dev-main shares 1.2.0's archive).
    repo.release('1.2.0');
    await resync('acme/counted');
    const grown = await counterAndScan();
    expect(grown.scan).toBeGreaterThan(synced.scan);
    expect(grown.counter).toBe(grown.scan);
    repo.git('tag', '-d', '1.0.0');
    await resync('acme/counted');
    const shrunk = await counterAndScan();
    expect(shrunk.scan).toBeLessThan(grown.scan);
    expect(shrunk.counter).toBe(shrunk.scan);

    const api = adminApi(t);
    await api('POST', '/api/v1/packages', { name: 'acme/uploaded', type: 'artifact' });
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/v1/packages/acme/uploaded/artifacts?version=2.0.0',
      headers: { ...t.admin, 'content-type': 'application/zip' },
      payload: packageZip(
        { name: 'acme/uploaded' },
        { 'src/A.php': '<?php // '.padEnd(2000, 'x') },
      ),
    });
    expect(upload.statusCode).toBe(201);
    const uploaded = await counterAndScan();
    expect(uploaded.scan).toBeGreaterThan(shrunk.scan);
    expect(uploaded.counter).toBe(uploaded.scan);

    await api('DELETE', '/api/v1/packages/acme/counted');
    const deleted = await counterAndScan();
    expect(deleted.scan).toBeLessThan(uploaded.scan);
    expect(deleted.counter).toBe(deleted.scan);
    await api('DELETE', '/api/v1/packages/acme/uploaded');
    expect(await counterAndScan()).toEqual({ counter: 0, scan: 0 });
  });

  it('stays equal to the scan when uploads to several packages commit at once', async () => {
    const api = adminApi(t);
    const names = ['acme/par-a', 'acme/par-b', 'acme/par-c', 'acme/par-d'];
    for (const name of names) await api('POST', '/api/v1/packages', { name, type: 'artifact' });
    const answers = await Promise.all(
      names.map((name, i) =>
        t.app.inject({
          method: 'POST',
          url: `/api/v1/packages/${name}/artifacts?version=1.0.${i}`,
          headers: { ...t.admin, 'content-type': 'application/zip' },
          payload: packageZip({ name }, { 'src/A.php': `<?php // ${name}`.padEnd(500 * (i + 1)) }),
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 201]);
    const after = await counterAndScan();
    expect(after.scan).toBeGreaterThan(0);
    expect(after.counter).toBe(after.scan);
    for (const name of names) await api('DELETE', `/api/v1/packages/${name}`);
    expect(await counterAndScan()).toEqual({ counter: 0, scan: 0 });
  });

  it('is what downloads report, without scanning the versions', async () => {
    const repo = new GitFixture('acme/served');
    repos.push(repo);
    repo.release('1.0.0');
    await addSyncedPackage(t, 'acme/served', repo.url);
    const api = adminApi(t);
    const customer = await createCustomer(t, 'Counter');
    await api('POST', `/api/v1/customers/${customer.id}/packages`, {
      package: 'acme/served',
      constraint: '*',
    });
    const token = await api('POST', `/api/v1/customers/${customer.id}/tokens`, { name: 't' });
    const download = () =>
      t.app.inject({
        url: '/dist/acme/served/1.0.0.zip',
        headers: { authorization: basicAuth(token.plain_token) },
      });
    const { scan } = await counterAndScan();
    expect((await download()).headers['x-storage-used']).toBe(String(scan));
    // The header reads the counter row: move it and the header follows.
    await db()
      .updateTable('usage_counters')
      .set({ value: scan + 12345 })
      .where('tenant_id', '=', DEFAULT_TENANT_ID)
      .where('metric', '=', STORAGE_METRIC)
      .execute();
    expect((await download()).headers['x-storage-used']).toBe(String(scan + 12345));
  });

  it('is filled from the stored versions by its migration', async () => {
    const before = await scanStorageUsed(db(), DEFAULT_TENANT_ID);
    expect(before).toBeGreaterThan(0);
    await db().deleteFrom('usage_counters').where('metric', '=', STORAGE_METRIC).execute();
    expect(await storedStorageUsed(db(), DEFAULT_TENANT_ID)).toBe(0);
    await backfill(db());
    expect(await counterAndScan()).toEqual({ counter: before, scan: before });
    // Running it again changes nothing (it replaces the counters it fills).
    await backfill(db());
    expect(await storedStorageUsed(db(), DEFAULT_TENANT_ID)).toBe(before);
  });
});
