import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import { ObjectReader, archiveZip } from '../../infra/git/index.js';
import { readZip, releasesRepo, unpack } from '../../infra/git/zip.test-helpers.js';
import { buffer } from 'node:stream/consumers';
import { archiveKey } from './archives.js';
import { packPrefix } from './archive-packs.js';
import { SyncService } from './service.js';

let t: TestApp;
const repos: GitFixture[] = [];
beforeAll(async () => {
  t = await createTestApp({ WORKER: 'off' });
});
afterAll(async () => {
  await t.close();
  repos.forEach((r) => r.remove());
});

async function added(name: string, r: GitFixture): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/packages',
    headers: t.admin,
    payload: { name, repository_url: r.url, type: 'git' },
  });
  return res.json<{ id: string }>().id;
}

const versionsOf = (packageId: string) =>
  t.db
    .selectFrom('versions')
    .select([
      'version',
      'reference',
      'dist_key',
      'dist_offset',
      'dist_size',
      'dist_shasum',
      'updated_at',
      'metadata',
    ])
    .where('package_id', '=', packageId)
    .orderBy('version')
    .execute();

describe('syncing again', () => {
  it('reads only the refs that moved, and keeps every other version as it was', async () => {
    const r = new GitFixture('acme/incremental');
    repos.push(r);
    for (const v of ['1.0.0', '1.1.0', '1.2.0', '1.3.0']) r.release(v);
    const id = await added('acme/incremental', r);
    const sync = new SyncService(t.runtime.services.deps);
    await sync.sync('default', id);
    const before = await versionsOf(id);
    // All in one archive pack, each version its own slice.
    expect(new Set(before.map((v) => v.dist_key)).size).toBe(1);
    expect(before.every((v) => v.dist_key.startsWith(packPrefix('default', id)))).toBe(true);

    r.release('1.4.0');
    const reads = vi.spyOn(ObjectReader.prototype, 'read');
    try {
      const result = await sync.sync('default', id);
      expect(result.versions_added).toEqual(['1.4.0']);
      const head = r.git('rev-parse', 'HEAD').trim();
      const named = reads.mock.calls.map(([name]) => name);
      // The new commit (1.4.0 and main), its tree and files, and the README: nothing older.
      const old = before.map((v) => v.reference).filter((c) => c !== head);
      expect(named.filter((n) => old.some((c) => n.startsWith(c)))).toEqual([]);
      expect(named).toContain(`${head}:composer.json`);
    } finally {
      reads.mockRestore();
    }
    const after = await versionsOf(id);
    for (const v of before.filter((b) => b.version !== 'dev-main')) {
      expect(after.find((a) => a.version === v.version)).toEqual(v);
    }
    const dev = after.find((v) => v.version === 'dev-main')!;
    expect(dev.reference).toBe(r.git('rev-parse', 'HEAD').trim());
  });

  it('keeps the key and SHA-1 of an archive git made, in a new process too', async () => {
    const r = new GitFixture('acme/legacy');
    repos.push(r);
    r.release('1.0.0').release('2.0.0');
    const id = await added('acme/legacy', r);
    await new SyncService(t.runtime.services.deps).sync('default', id);
    // As an earlier release stored it: git archive's zip under the key without a format marker.
    const commit = r.git('rev-parse', '1.0.0').trim();
    const legacy = archiveKey('default', id, commit);
    const zip = await archiveZip(`${r.dir}/.git`, commit);
    await t.runtime.services.deps.storage.put(legacy, zip);
    const shasum = crypto.createHash('sha1').update(zip).digest('hex');
    await t.db
      .updateTable('versions')
      .set({ dist_key: legacy, dist_shasum: shasum, dist_size: zip.length, dist_offset: null })
      .where('package_id', '=', id)
      .where('version', '=', '1.0.0')
      .execute();

    r.release('2.1.0');
    // A new process reads every ref once, and still keeps what 1.0.0 was served as.
    await new SyncService(t.runtime.services.deps).sync('default', id);
    const rows = await versionsOf(id);
    expect(rows.find((v) => v.version === '1.0.0')).toMatchObject({
      dist_key: legacy,
      dist_shasum: shasum,
    });
    const fresh = rows.find((v) => v.version === '2.1.0')!;
    // New archives go into a pack (docs/composer.md, "Archive packs"): the version names its slice.
    expect(fresh.dist_key.startsWith(packPrefix('default', id))).toBe(true);
    expect(fresh.dist_offset).toBe(0);
    // The new archive holds what git archive of the same commit holds.
    const read = await t.runtime.services.deps.storage.getStream(fresh.dist_key, {
      offset: fresh.dist_offset!,
      length: fresh.dist_size,
    });
    const stored = await buffer(read!.body);
    expect(crypto.createHash('sha1').update(stored).digest('hex')).toBe(fresh.dist_shasum);
    const git = await archiveZip(`${r.dir}/.git`, fresh.reference);
    expect(readZip(stored).records).toEqual(readZip(git).records);
    expect(unpack(stored)).toEqual(unpack(git));
  });

  it('is done with git before its versions commit, so its task ends as the package reads ok', async () => {
    const r = new GitFixture('acme/prompt');
    repos.push(r);
    r.release('1.0.0');
    const id = await added('acme/prompt', r);
    // What the package said each time the sync's git reader was closed.
    const seen: string[] = [];
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with its own `this`
    const close = ObjectReader.prototype.close;
    const spy = vi.spyOn(ObjectReader.prototype, 'close').mockImplementation(async function (
      this: ObjectReader,
    ) {
      const row = await t.db
        .selectFrom('packages')
        .select('sync_status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      seen.push(row.sync_status);
      return close.call(this);
    });
    try {
      await new SyncService(t.runtime.services.deps).sync('default', id);
    } finally {
      spy.mockRestore();
    }
    // Closed before the commit: a sync asked for once the package reads ok is a new one, not
    // this one still waiting for git to exit.
    expect(seen[0]).toBe('running');
  });
});

describe('one new tag on a 1,000-tag repository', () => {
  it('reads, zips and stores that tag only', async () => {
    const many = releasesRepo(1000);
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/packages',
        headers: t.admin,
        payload: { name: 'acme/many', repository_url: `file://${many.dir}`, type: 'git' },
      });
      const id = res.json<{ id: string }>().id;
      const sync = new SyncService(t.runtime.services.deps);
      const storage = t.runtime.services.deps.storage;
      const puts = vi.spyOn(storage, 'put');
      const reads = vi.spyOn(ObjectReader.prototype, 'read');
      await sync.sync('default', id);
      // The first sync reads and zips every tag, stored as one archive pack.
      expect(puts.mock.calls.length).toBe(1);
      expect(reads.mock.calls.length).toBeGreaterThan(3000);
      const before = await versionsOf(id);
      puts.mockClear();
      reads.mockClear();

      const head = appendRelease(many.dir, 1000);
      const result = await sync.sync('default', id);
      expect(result.versions_added).toEqual(['v1.1000.0']);
      // One zip (the tag and dev-main share its commit), and only objects of that commit read:
      // its commit, composer.json and tree (the refs; the tree names the version's README), its
      // tree and README (the default branch moved), then for the zip its commit, two trees and
      // three blobs.
      expect(puts.mock.calls).toHaveLength(1);
      const [packKey, packBytes] = puts.mock.calls[0]!;
      expect(packKey.startsWith(packPrefix('default', id))).toBe(true);
      const named = reads.mock.calls.map(([name]) => name);
      expect(named.length).toBeLessThanOrEqual(11);
      const old = new Set(before.map((v) => v.reference));
      expect(named.filter((n) => old.has(n.slice(0, 40)))).toEqual([]);
      // Every other version's row is as it was.
      const after = await versionsOf(id);
      expect(after).toHaveLength(before.length + 1);
      for (const v of before.filter((b) => b.version !== 'dev-main')) {
        expect(after.find((a) => a.version === v.version)).toEqual(v);
      }
      // The new tag's archive is the whole of that pack.
      const fresh = after.find((v) => v.version === 'v1.1000.0')!;
      expect(fresh).toMatchObject({ dist_key: packKey, dist_offset: 0 });
      expect(fresh.dist_size).toBe(packBytes.length);
      expect(fresh.reference).toBe(head);
      puts.mockRestore();
      reads.mockRestore();
    } finally {
      many.remove();
    }
  });
});

/** One more release on main of a releasesRepo repository, tagged v1.<n>.0; answers its commit. */
function appendRelease(dir: string, n: number): string {
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const who = `Fixture <fixture@packyard.test> ${1_600_000_000 + n * 3600} +0000`;
  const stream = [
    `commit refs/heads/main\nmark :1\nauthor ${who}\ncommitter ${who}\n`,
    data(`Release ${n}`),
    'from refs/heads/main^0\n',
    'M 100644 inline composer.json\n',
    data(`{"name": "acme/many", "description": "release ${n}"}\n`),
    'M 100644 inline src/Version.php\n',
    data(`<?php const VERSION = '1.${n}.0';\n`),
    `\nreset refs/tags/v1.${n}.0\nfrom :1\n\n`,
  ];
  execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, input: stream.join('') });
  return execFileSync('git', ['rev-parse', 'refs/heads/main'], {
    cwd: dir,
    encoding: 'utf8',
  }).trim();
}
