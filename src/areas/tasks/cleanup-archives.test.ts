import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, waitFor } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import { addSyncedPackage, adminApi, waitForSync } from '../../../test/factories.js';

let t: TestApp;
let repo: GitFixture;
const api = (method: string, url: string, payload?: unknown) => adminApi(t)(method, url, payload);

beforeAll(async () => {
  t = await createTestApp();
  repo = new GitFixture('acme/cleaned');
  repo.release('1.0.0').release('1.1.0');
});
afterAll(async () => {
  await t.close();
  repo.remove();
});

async function cleanup() {
  const task = await api('POST', '/api/v1/tasks/cleanup');
  const done = await waitFor(
    () => api('GET', `/api/v1/tasks/${task.id}`),
    (r) => r.status === 'done' || r.status === 'failed',
  );
  expect(done.status).toBe('done');
  return done.result as { orphan_archives: number };
}

describe('cleanup of archives', () => {
  it('deletes archives no version uses once they are an hour old, and keeps the rest', async () => {
    await addSyncedPackage(t, 'acme/cleaned', repo.url);
    const db = t.db;
    const keyOf = async (version: string) =>
      (
        await db
          .selectFrom('versions')
          .select('dist_key')
          .where('version', '=', version)
          .executeTakeFirstOrThrow()
      ).dist_key;
    const oldKey = await keyOf('1.0.0');
    const keptKey = await keyOf('1.1.0');
    const file = (key: string) => path.join(t.dataDir, 'archives', key);

    repo.git('tag', '-d', '1.0.0');
    await api('POST', '/api/v1/packages/acme/cleaned/sync');
    await waitFor(
      () => api('GET', '/api/v1/packages/acme/cleaned'),
      (p) => p.versions.every((v: { version: string }) => v.version !== '1.0.0'),
    );
    await waitForSync(t, 'acme/cleaned');
    expect(fs.existsSync(file(oldKey))).toBe(true);

    // A fresh orphan survives (a sync may be about to use it)...
    expect((await cleanup()).orphan_archives).toBe(0);
    expect(fs.existsSync(file(oldKey))).toBe(true);

    // ...an old one goes; archives in use stay whatever their age.
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    fs.utimesSync(file(oldKey), twoHoursAgo, twoHoursAgo);
    fs.utimesSync(file(keptKey), twoHoursAgo, twoHoursAgo);
    expect((await cleanup()).orphan_archives).toBe(1);
    expect(fs.existsSync(file(oldKey))).toBe(false);
    expect(fs.existsSync(file(keptKey))).toBe(true);
    const zip = await t.app.inject({
      url: '/api/v1/packages/acme/cleaned/download/1.1.0',
      headers: t.admin,
    });
    expect(zip.statusCode).toBe(200);
  });
});
