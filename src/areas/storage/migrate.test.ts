import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, waitFor } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { addSyncedPackage, adminApi, waitForSync } from '../../../test/factories.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import { startFakeS3 } from '../../../test/fakes/s3.js';
import type { FakeS3 } from '../../../test/fakes/s3.js';
import { storageSettings } from '../../config/index.js';
import { openStorage } from '../../infra/storage/open.js';
import { FsStorage } from '../../infra/storage/fs-storage.js';
import type { ArchiveStorage } from '../../infra/storage/storage.js';
import { expectedShasums, migrateArchives } from './migrate.js';

let t: TestApp;
let git: GitFixture;
let s3: FakeS3;
let prefix: string;

beforeAll(async () => {
  s3 = await startFakeS3();
  t = await createTestApp();
  git = new GitFixture('acme/moving');
  // One sync per release: three archive packs (a pack holds one sync's zips).
  git.release('1.0.0');
  await addSyncedPackage(t, 'acme/moving', git.url);
  for (const version of ['1.1.0', '2.0.0']) {
    git.release(version);
    await adminApi(t)('POST', '/api/v1/packages/acme/moving/sync');
    await waitFor(
      () => adminApi(t)('GET', '/api/v1/packages/acme/moving'),
      (p) => p.versions.some((v: { version: string }) => v.version === version),
    );
    await waitForSync(t, 'acme/moving');
  }
  prefix = `m-${crypto.randomBytes(4).toString('hex')}`;
}, 60_000);

afterAll(async () => {
  await t?.close();
  git?.remove();
  await s3?.close();
});

const sha1 = (b: Buffer) => crypto.createHash('sha1').update(b).digest('hex');

async function keysOf(storage: ArchiveStorage): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of storage.list('')) keys.push(o.key);
  return keys.sort();
}

/** Runs `packyard storage migrate --to <url>` on the test app's settings. */
function cli(to: string): Promise<{ code: number | null; out: string }> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    DATA_DIR: t.dataDir,
    ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}),
    ...(t.config.databaseSchema ? { DATABASE_SCHEMA: t.config.databaseSchema } : {}),
    ...s3.env(prefix),
  };
  delete env.STORAGE_URL;
  const child = spawn(process.execPath, ['bin/packyard.js', 'storage', 'migrate', '--to', to], {
    env,
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}

describe('packyard storage migrate', () => {
  it('moves every archive to S3, verified, and resumes an interrupted run', async () => {
    const source = new FsStorage(path.join(t.dataDir, 'archives'));
    const keys = await keysOf(source);
    expect(keys.length).toBe(3);
    const destination = openStorage(storageSettings(`s3://bucket/${prefix}`, '', s3.env(prefix)));
    try {
      // An earlier run stopped part-way: one object arrived whole, one was left damaged.
      await destination.put(keys[0]!, (await source.get(keys[0]!))!);
      await destination.put(keys[1]!, Buffer.from('damaged'));

      const run = await cli(`s3://bucket/${prefix}`);
      expect(run.out).toContain('Copied 2 archives');
      expect(run.out).toContain('1 already there, 0 failed');
      expect(run.code).toBe(0);

      expect(await keysOf(destination)).toEqual(keys);
      for (const key of keys) {
        expect(sha1((await destination.get(key))!)).toBe(sha1((await source.get(key))!));
      }
      const again = await cli(`s3://bucket/${prefix}`);
      expect(again.out).toContain('Copied 0 archives (0 bytes), 3 already there, 0 failed');
    } finally {
      destination.close();
    }
  }, 60_000);

  it('reports a source archive whose SHA-1 is not the one published, and copies nothing of it', async () => {
    const root = fs.mkdtempSync(path.join(t.dataDir, 'copy-'));
    const source = new FsStorage(path.join(t.dataDir, 'archives'));
    const keys = await keysOf(source);
    const damaged = keys[2]!;
    const from = new FsStorage(path.join(root, 'from'));
    for (const key of keys) await from.put(key, (await source.get(key))!);
    await from.putStream(damaged, Readable.from([Buffer.from('bit rot')]));
    const to = new FsStorage(path.join(root, 'to'));

    const expected = await expectedShasums(t.db);
    const report = await migrateArchives(from, to, { expected });
    expect(report.copied).toBe(2);
    expect(report.failed).toEqual([
      { key: damaged, reason: expect.stringContaining('source SHA-1') as unknown },
    ]);
    expect(await to.exists(damaged)).toBe(false);
  });

  it('refuses an unknown destination scheme with one line and exit code 2', async () => {
    const run = await cli('gs://bucket/x');
    expect(run.code).toBe(2);
    expect(run.out.trim()).toBe(
      'packyard: --to must start with s3:// or file:// (archive storage), got "gs://…"',
    );
  });
});
