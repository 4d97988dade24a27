import crypto from 'node:crypto';
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
  it('deletes archive packs no version uses once they are an hour old, and keeps the rest', async () => {
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
    // One sync's zips share one archive pack (docs/composer.md, "Archive packs").
    const firstPack = await keyOf('1.0.0');
    expect(await keyOf('1.1.0')).toBe(firstPack);
    const file = (key: string) => path.join(t.dataDir, 'archives', key);
    const age = (key: string) => {
      const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
      fs.utimesSync(file(key), twoHoursAgo, twoHoursAgo);
    };
    const resync = async (gone: string) => {
      await api('POST', '/api/v1/packages/acme/cleaned/sync');
      await waitFor(
        () => api('GET', '/api/v1/packages/acme/cleaned'),
        (p) => p.versions.every((v: { version: string }) => v.version !== gone),
      );
      await waitForSync(t, 'acme/cleaned');
    };

    // 1.0.0 goes, 1.1.0 still points into the pack: an old pack in use stays.
    repo.git('tag', '-d', '1.0.0');
    await resync('1.0.0');
    age(firstPack);
    expect((await cleanup()).orphan_archives).toBe(0);
    expect(fs.existsSync(file(firstPack))).toBe(true);

    // 1.1.0 goes too and main moves on (a new pack): no version points into the first one.
    repo.git('tag', '-d', '1.1.0');
    repo.release('1.2.0');
    await resync('1.1.0');
    const secondPack = await keyOf('1.2.0');
    expect(secondPack).not.toBe(firstPack);
    // A fresh orphan would survive (a sync may be about to use it); an old one goes.
    age(firstPack);
    age(secondPack);
    expect((await cleanup()).orphan_archives).toBe(1);
    expect(fs.existsSync(file(firstPack))).toBe(false);
    expect(fs.existsSync(file(secondPack))).toBe(true);
    const zip = await t.app.inject({
      url: '/api/v1/packages/acme/cleaned/download/1.2.0',
      headers: t.admin,
    });
    expect(zip.statusCode).toBe(200);
    expect(crypto.createHash('sha1').update(zip.rawPayload).digest('hex')).toBe(
      (
        await db
          .selectFrom('versions')
          .select('dist_shasum')
          .where('version', '=', '1.2.0')
          .executeTakeFirstOrThrow()
      ).dist_shasum,
    );
  });

  it('keeps a fresh orphan: a running sync writes its pack before the versions that use it', async () => {
    const orphan = path.join(t.dataDir, 'archives', 'default', 'pkg', 'packs', 'fresh.zip1pack');
    fs.mkdirSync(path.dirname(orphan), { recursive: true });
    fs.writeFileSync(orphan, 'zip bytes');
    expect((await cleanup()).orphan_archives).toBe(0);
    expect(fs.existsSync(orphan)).toBe(true);
  });
});
