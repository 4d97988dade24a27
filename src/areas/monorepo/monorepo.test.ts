import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, waitFor } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import { addSyncedMonorepo, addSyncedPackage, waitForSync } from '../../../test/factories.js';

let t: TestApp;
const repos: GitFixture[] = [];
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
  repos.forEach((r) => r.remove());
});

/** A monorepo: acme/a and acme/b in packages/*, tags 1.0.0 and 1.1.0 (only b changes in 1.1.0). */
function monorepo(): GitFixture {
  const r = new GitFixture('acme/mono');
  repos.push(r);
  r.write('README.md', '# Acme monorepo\n');
  r.child('packages/a', 'acme/a', '1.0.0').child('packages/b', 'acme/b', '1.0.0');
  r.commit('first').tag('1.0.0');
  r.child('packages/b', 'acme/b', '1.1.0').commit('b moves on').tag('1.1.0');
  return r;
}

function zipEntries(zip: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err) return reject(err);
      const names: string[] = [];
      file.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        file.readEntry();
      });
      file.on('end', () => resolve(names.sort()));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

async function taskResult(id: string) {
  const row = await waitFor(
    () =>
      t.runtime.services.tasks.get(
        { tenantId: 'default', actor: { kind: 'system', id: null } },
        id,
      ),
    (task) => task.status === 'done' || task.status === 'failed',
  );
  expect(row.status, row.error ?? '').toBe('done');
  return JSON.parse(row.result ?? '{}');
}

const get = (url: string) => t.app.inject({ url, headers: t.admin });
const post = (url: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: t.admin, payload });
const versionsOf = (pkg: { versions: { version: string }[] }) => pkg.versions.map((v) => v.version);

describe('monorepos', () => {
  it('turns each child folder into a package built from its folder only', async () => {
    const r = monorepo();
    const started = Date.now();
    const parent = await addSyncedMonorepo(t, 'acme/mono', r.url, ['packages/*']);
    const elapsed = Date.now() - started;
    expect(parent.sync_status, parent.sync_error).toBe('ok');
    expect(parent.versions).toEqual([]);
    expect(elapsed).toBeLessThan(10_000);

    const described = await get('/api/v1/packages/acme/mono/monorepo');
    expect(described.statusCode).toBe(200);
    expect(described.json()).toEqual({
      paths: ['packages/*'],
      children: ['acme/a', 'acme/b'],
      synced_at: parent.synced_at,
    });
    const children = await get('/api/v1/packages/acme/mono/monorepo/children?per_page=1');
    expect(children.json().pagination).toMatchObject({ total: 2, total_pages: 2, per_page: 1 });
    expect(children.json().data[0]).toMatchObject({
      name: 'acme/a',
      type: 'git',
      repository_url: r.url,
      latest_version: '1.1.0',
      sync_status: 'ok',
      description: 'The acme/a package',
    });

    const a = (await get('/api/v1/packages/acme/a')).json();
    const b = (await get('/api/v1/packages/acme/b')).json();
    expect(versionsOf(a)).toEqual(['1.1.0', '1.0.0', 'dev-main']);
    expect(versionsOf(b)).toEqual(['1.1.0', '1.0.0', 'dev-main']);

    const zipA = await get('/api/v1/packages/acme/a/download/1.0.0');
    expect(zipA.statusCode).toBe(200);
    expect(await zipEntries(zipA.rawPayload)).toEqual(['composer.json', 'src/', 'src/Version.php']);
    const zipB = await get('/api/v1/packages/acme/b/download/1.1.0');
    expect(zipB.rawPayload.toString('latin1')).toContain("'1.1.0'");
    const zipB0 = await get('/api/v1/packages/acme/b/download/1.0.0');
    expect(zipB0.rawPayload.toString('latin1')).toContain("'1.0.0'");
    expect(zipB0.rawPayload.toString('latin1')).not.toContain('Acme monorepo');
  });

  it('yanks a child like any package and refuses to sync it on its own', async () => {
    const yank = await post('/api/v1/packages/acme/b/yank/1.0.0');
    expect(yank.statusCode).toBe(200);
    expect(yank.json()).toMatchObject({ version: '1.0.0', yanked: true });
    const sync = await post('/api/v1/packages/acme/a/sync');
    expect(sync.statusCode).toBe(409);
    expect(sync.json()).toMatchObject({ code: 'CONFLICT' });
    expect(sync.json().message).toMatch(/acme\/mono/);
    expect((await post('/api/v1/packages/acme/a/validate')).statusCode).toBe(409);
    // The same rule whichever way a sync is asked for: POST /tasks refuses it too.
    const queued = await post('/api/v1/tasks', {
      type: 'package.sync',
      payload: { package: 'acme/a' },
    });
    expect(queued.statusCode).toBe(409);
    expect(queued.json().message).toBe(sync.json().message);
    expect((await get('/api/v1/packages/acme/a/monorepo')).statusCode).toBe(404);

    // The parent's next sync keeps the yank and changes nothing else.
    const task = await post('/api/v1/packages/acme/mono/monorepo/sync');
    expect(task.statusCode).toBe(202);
    const result = await taskResult(task.json().id);
    expect(result.children).toEqual([
      { name: 'acme/a', path: 'packages/a', versions: 3, versions_added: [], versions_removed: [] },
      { name: 'acme/b', path: 'packages/b', versions: 3, versions_added: [], versions_removed: [] },
    ]);
    const b = (await get('/api/v1/packages/acme/b')).json();
    expect(b.versions.find((v: { version: string }) => v.version === '1.0.0').yanked).toBe(true);
  });

  it('resyncs: keeps yanks, adds new children, drops removed ones and skips taken names', async () => {
    const taken = new GitFixture('acme/taken');
    repos.push(taken);
    taken.release('1.0.0');
    await addSyncedPackage(t, 'acme/taken', taken.url);

    const r = new GitFixture('acme/mono2');
    repos.push(r);
    r.child('packages/x', 'acme/x', '1.0.0').child('packages/y', 'acme/y', '1.0.0');
    r.commit('first').tag('v1.0.0');
    await addSyncedMonorepo(t, 'acme/mono2', r.url, ['packages/*']);
    expect((await get('/api/v1/packages/acme/mono2/monorepo')).json().children).toEqual([
      'acme/x',
      'acme/y',
    ]);

    // y leaves the repository (tag v1.0.0 too), z arrives, and a folder claims acme/taken.
    r.git('rm', '-rq', 'packages/y');
    r.child('packages/z', 'acme/z', '2.0.0').child('packages/t', 'acme/taken', '2.0.0');
    r.commit('second');
    r.git('tag', '-d', 'v1.0.0');
    r.tag('v2.0.0');
    const task = await post('/api/v1/packages/acme/mono2/monorepo/sync');
    expect(task.statusCode).toBe(202);
    const result = await taskResult(task.json().id);
    expect(result.skipped).toEqual([
      {
        ref: 'packages/t',
        reason: 'a package named "acme/taken" already exists and is not a child of acme/mono2',
      },
    ]);
    expect(result.children).toEqual([
      expect.objectContaining({
        name: 'acme/x',
        versions_added: ['v2.0.0'],
        versions_removed: ['v1.0.0'],
      }),
      expect.objectContaining({ name: 'acme/z', versions_added: ['v2.0.0', 'dev-main'] }),
      expect.objectContaining({
        name: 'acme/y',
        versions: 0,
        versions_removed: ['v1.0.0', 'dev-main'],
      }),
    ]);
    const parent = await waitForSync(t, 'acme/mono2');
    expect(parent.sync_status, parent.sync_error).toBe('ok');

    const described = (await get('/api/v1/packages/acme/mono2/monorepo')).json();
    expect(described.children).toEqual(['acme/x', 'acme/y', 'acme/z']);
    expect(versionsOf((await get('/api/v1/packages/acme/y')).json())).toEqual([]);
    expect(versionsOf((await get('/api/v1/packages/acme/z')).json())).toEqual([
      'v2.0.0',
      'dev-main',
    ]);
    expect(versionsOf((await get('/api/v1/packages/acme/taken')).json())).toEqual([
      '1.0.0',
      'dev-main',
    ]);
    const report = (await post('/api/v1/packages/acme/mono2/sync')).json();
    expect(report.status).toMatch(/pending|running|done/);
    await waitForSync(t, 'acme/mono2');
  });

  it('syncs a monorepo with 50 tags in a few seconds', async () => {
    const r = new GitFixture('acme/big');
    repos.push(r);
    for (let i = 0; i < 50; i++) {
      for (const c of ['a', 'b', 'c']) r.child(`lib/${c}`, `big/${c}`, `1.${i}.0`);
      r.commit(`release ${i}`).tag(`1.${i}.0`);
    }
    const started = Date.now();
    const parent = await addSyncedMonorepo(t, 'acme/big', r.url, ['lib/*']);
    const elapsed = Date.now() - started;
    console.info(`monorepo sync: 3 children x 50 tags in ${elapsed} ms`);
    expect(parent.sync_status, parent.sync_error).toBe('ok');
    expect((await get('/api/v1/packages/big/c')).json().versions).toHaveLength(51);
    expect(elapsed).toBeLessThan(15_000);
  });

  it('deletes the children with their parent', async () => {
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: '/api/v1/packages/acme/mono',
          headers: t.admin,
        })
      ).statusCode,
    ).toBe(204);
    expect((await get('/api/v1/packages/acme/a')).statusCode).toBe(404);
    expect((await get('/api/v1/packages/acme/b')).statusCode).toBe(404);
    expect((await get('/api/v1/packages/acme/mono/monorepo')).statusCode).toBe(404);
  });

  it('rejects bad monorepo input', async () => {
    const r = monorepo();
    const add = (monorepo: unknown) =>
      post('/api/v1/packages', { name: 'acme/bad', repository_url: r.url, monorepo });
    for (const paths of [['../x'], ['packages/../..'], ['/abs'], [], Array(21).fill('p/*')]) {
      const res = await add({ paths });
      expect(res.statusCode, JSON.stringify(paths)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
    expect((await add({ paths: ['packages/*'], extra: 1 })).statusCode).toBe(400);
    expect((await get('/api/v1/packages/acme/bad')).statusCode).toBe(404);
    expect((await get('/api/v1/packages/acme/taken/monorepo')).statusCode).toBe(404);
  });
});
