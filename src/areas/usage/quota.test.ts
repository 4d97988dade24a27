import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { adminApi, addSyncedPackage, createCustomer } from '../../../test/factories.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import { DEFAULT_TENANT_ID } from '../../infra/db/schema.js';
import { StorageLimitError, assertStorageLeft, storageUsed } from './service.js';

let t: TestApp;
let repo: GitFixture;
let auth: string;

beforeAll(async () => {
  // The package is synced before anything checks the limit, so storage is already over it.
  t = await createTestApp({ STORAGE_LIMIT_BYTES: '1' });
  repo = new GitFixture('acme/stored');
  repo.release('1.0.0').release('1.1.0');
  await addSyncedPackage(t, 'acme/stored', repo.url);
  const api = adminApi(t);
  const customer = await createCustomer(t, 'Storage');
  await api('POST', `/api/v1/customers/${customer.id}/packages`, {
    package: 'acme/stored',
    constraint: '*',
  });
  const token = await api('POST', `/api/v1/customers/${customer.id}/tokens`, { name: 't' });
  auth = basicAuth(token.plain_token);
});
afterAll(async () => {
  await t.close();
  repo.remove();
});

const deps = () => t.runtime.services.deps;
const withLimit = (storageLimitBytes: number) => ({
  db: deps().db,
  config: { ...deps().config, storageLimitBytes },
});

describe('storage limit', () => {
  it('refuses new archives once the storage used is at or over a non-zero limit', async () => {
    const used = await storageUsed(deps(), DEFAULT_TENANT_ID);
    expect(used).toBeGreaterThan(1);
    const err = await t.runtime.services.composer.usage.assertStorageLeft(DEFAULT_TENANT_ID).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StorageLimitError);
    expect((err as Error).message).toBe(`Storage limit reached: ${used} of 1 bytes used`);
    await expect(assertStorageLeft(withLimit(used), DEFAULT_TENANT_ID)).rejects.toThrow(
      `Storage limit reached: ${used} of ${used} bytes used`,
    );
  });

  it('refuses archives that would pass the limit, and allows those that fit', async () => {
    const used = await storageUsed(deps(), DEFAULT_TENANT_ID);
    await expect(assertStorageLeft(withLimit(used + 100), DEFAULT_TENANT_ID, 100)).resolves.toBe(
      undefined,
    );
    await expect(assertStorageLeft(withLimit(used + 100), DEFAULT_TENANT_ID, 101)).rejects.toThrow(
      `Storage limit reached: ${used} of ${used + 100} bytes used, 101 more bytes would not fit`,
    );
  });

  it('is off at 0', async () => {
    await expect(
      assertStorageLeft(withLimit(0), DEFAULT_TENANT_ID, Number.MAX_SAFE_INTEGER),
    ).resolves.toBe(undefined);
  });

  it('never blocks downloads: archives stay downloadable past it', async () => {
    const p2 = await t.app.inject({
      url: '/p2/acme/stored.json',
      headers: { authorization: auth },
    });
    expect(p2.statusCode).toBe(200);
    const versions = p2.json().packages['acme/stored'] as { dist: { url: string } }[];
    expect(versions.length).toBe(2);
    for (const v of versions) {
      const zip = await t.app.inject({
        url: new URL(v.dist.url).pathname,
        headers: { authorization: auth },
      });
      expect(zip.statusCode).toBe(200);
      expect(zip.headers['x-storage-limit']).toBe('1');
      expect(Number(zip.headers['x-storage-used'])).toBeGreaterThan(1);
    }
  });
});
