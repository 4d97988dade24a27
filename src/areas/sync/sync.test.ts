import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, waitFor } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import { addSyncedPackage, createCustomer, waitForSync } from '../../../test/factories.js';

let t: TestApp;
const repos: GitFixture[] = [];
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
  repos.forEach((r) => r.remove());
});

/**
 * addSyncedPackage, then also the first sync's task finished: a sync requested while that task
 * is still running would be answered with it, and never run.
 */
async function addSettled(app: TestApp, name: string, url: string) {
  const pkg = await addSyncedPackage(app, name, url);
  await waitFor(
    () =>
      app.db
        .selectFrom('tasks')
        .select('status')
        .where('type', '=', 'package.sync')
        .where('status', 'in', ['pending', 'running'])
        .execute(),
    (rows) => rows.length === 0,
  );
  return pkg;
}

function repo(name: string): GitFixture {
  const r = new GitFixture(name);
  repos.push(r);
  return r;
}

describe('sync from real git repositories', () => {
  it('turns tags and branches into versions and reports refs it skipped', async () => {
    const r = repo('acme/lib');
    r.write('README.md', '# Acme lib\n');
    r.release('v1.0.0').release('1.1.0').release('2.0.0-beta1');
    r.write('composer.json', '{ broken').commit('broken').tag('3.0.0');
    r.composerJson().commit('fix').tag('not-a-version');
    const pkg = await addSyncedPackage(t, 'acme/lib', r.url);
    expect(pkg.sync_status).toBe('ok');
    expect(pkg.latest_version).toBe('1.1.0');
    expect(pkg.description).toBe('The acme/lib package');
    const versions = pkg.versions.map((v: { version: string }) => v.version);
    expect(versions).toEqual(['2.0.0-beta1', '1.1.0', 'v1.0.0', 'dev-main']);
    expect(pkg.versions[2]).toMatchObject({ version_normalized: '1.0.0.0', yanked: false });

    const report = await t.app.inject({
      method: 'POST',
      url: '/api/v1/packages/acme/lib/validate',
      headers: t.admin,
    });
    expect(report.statusCode).toBe(200);
    const skipped = report.json().skipped.map((s: { ref: string }) => s.ref);
    expect(skipped).toEqual(expect.arrayContaining(['tag 3.0.0', 'tag not-a-version']));
    expect(
      report.json().skipped.find((s: { ref: string }) => s.ref === 'tag 3.0.0').reason,
    ).toMatch(/not valid JSON/);

    const readme = await t.app.inject({
      url: '/api/v1/packages/acme/lib/readme',
      headers: t.admin,
    });
    expect(readme.json()).toEqual({
      name: 'acme/lib',
      format: 'markdown',
      content: '# Acme lib\n',
    });
  });

  it('picks up new tags, drops deleted ones and answers a second sync request with the same task', async () => {
    const r = repo('acme/moving');
    r.release('1.0.0').release('1.1.0');
    await addSettled(t, 'acme/moving', r.url);
    r.git('tag', '-d', '1.0.0');
    r.release('1.2.0');
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/v1/packages/acme/moving/sync',
      headers: t.admin,
    });
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/v1/packages/acme/moving/sync',
      headers: t.admin,
    });
    expect(first.statusCode).toBe(202);
    expect(['pending', 'running']).toContain(first.json().status);
    if (first.json().status === 'pending') expect(second.json().id).toBe(first.json().id);
    const task = await waitFor(
      () =>
        t.runtime.services.tasks.get(
          { tenantId: 'default', actor: { kind: 'system', id: null } },
          first.json().id,
        ),
      (row) => row.status === 'done',
    );
    expect(JSON.parse(task.result ?? '{}')).toMatchObject({
      versions_added: ['1.2.0'],
      versions_removed: ['1.0.0'],
    });
    const pkg = await waitForSync(t, 'acme/moving');
    expect(pkg.versions.map((v: { version: string }) => v.version)).toEqual([
      '1.2.0',
      '1.1.0',
      'dev-main',
    ]);
  });

  it('keeps earlier versions when the repository becomes unreachable', async () => {
    const r = repo('acme/fragile');
    r.release('1.0.0');
    await addSettled(t, 'acme/fragile', r.url);
    r.remove();
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/packages/acme/fragile/sync',
      headers: t.admin,
    });
    const pkg = await waitForSync(t, 'acme/fragile');
    expect(pkg.sync_status).toBe('failed');
    expect(pkg.sync_error).toMatch(/not found|does not exist|not a git repository/i);
    expect(pkg.versions.map((v: { version: string }) => v.version)).toEqual(['1.0.0', 'dev-main']);
    const zip = await t.app.inject({
      url: '/api/v1/packages/acme/fragile/download/1.0.0',
      headers: t.admin,
    });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
  });

  it('lets a webhook-scope customer token trigger a sync of a package its customer sees', async () => {
    const r = repo('acme/hooked');
    r.release('1.0.0');
    await addSyncedPackage(t, 'acme/hooked', r.url);
    const c = await createCustomer(t, 'Hooked');
    const token = async (scope: string) =>
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/v1/customers/${c.id}/tokens`,
          headers: t.admin,
          payload: { name: scope, scope },
        })
      ).json().plain_token as string;
    const sync = (secret: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/packages/acme/hooked/sync',
        headers: { authorization: `Bearer ${secret}` },
      });
    const webhook = await token('webhook');
    expect((await sync(webhook)).statusCode).toBe(403);
    await t.app.inject({
      method: 'POST',
      url: `/api/v1/customers/${c.id}/packages`,
      headers: t.admin,
      payload: { package: 'acme/hooked', constraint: '*' },
    });
    expect((await sync(webhook)).statusCode).toBe(202);
    expect((await sync(await token('download'))).statusCode).toBe(403);
    const other = await t.app.inject({
      url: '/api/v1/packages/acme/hooked',
      headers: { authorization: `Bearer ${webhook}` },
    });
    // A valid token without the permission: 403, not 401.
    expect(other.statusCode).toBe(403);
    expect(other.json().code).toBe('FORBIDDEN');
    await waitForSync(t, 'acme/hooked');
  });

  it('stops adding archives past the storage limit and keeps what was there', async () => {
    const limited = await createTestApp({ STORAGE_LIMIT_BYTES: '1' });
    try {
      const r = repo('acme/quota');
      r.release('1.0.0');
      const first = await addSettled(limited, 'acme/quota', r.url);
      expect(first.sync_status).toBe('ok');
      r.release('1.1.0');
      await limited.app.inject({
        method: 'POST',
        url: '/api/v1/packages/acme/quota/sync',
        headers: limited.admin,
      });
      const pkg = await waitForSync(limited, 'acme/quota');
      expect(pkg.sync_status).toBe('failed');
      expect(pkg.sync_error).toMatch(/Storage limit reached/);
      expect(pkg.versions.map((v: { version: string }) => v.version)).toEqual([
        '1.0.0',
        'dev-main',
      ]);
    } finally {
      await limited.close();
    }
  });

  it('rejects bad package input with the contract error and stores nothing', async () => {
    const post = (payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/packages',
        headers: t.admin,
        payload: payload as object,
      });
    const upper = await post({ name: 'Acme/Lib', repository_url: '/tmp/x' });
    expect(upper.statusCode).toBe(400);
    expect(upper.json().details[0].field).toBe('name');
    for (const url of ['not a url', 'ftp://host/acme/lib', '--upload-pack=x', 'ext::sh -c x']) {
      const notGit = await post({ name: 'acme/nogit', repository_url: url });
      expect(notGit.statusCode, url).toBe(400);
      expect(notGit.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [{ field: 'repository_url' }],
      });
    }
    const missing = await t.app.inject({ url: '/api/v1/packages/acme/nogit', headers: t.admin });
    expect(missing.statusCode).toBe(404);

    // A well-formed URL nobody answers on is added: the first sync says what is wrong.
    const gone = await post({ name: 'acme/gone', repository_url: '/definitely/not/here' });
    expect(gone.statusCode, gone.body).toBe(201);
    const failed = await waitForSync(t, 'acme/gone');
    expect(failed).toMatchObject({ sync_status: 'failed', versions: [] });
    expect(failed.sync_error).toMatch(/does not exist|not found|not a git repository/i);

    const empty = repo('acme/empty');
    empty.write('README.md', 'no composer here').commit('init');
    const pkg = await addSyncedPackage(t, 'acme/empty', empty.url);
    expect(pkg.sync_status).toBe('failed');
    expect(pkg.sync_error).toMatch(/composer\.json/);

    const dup = await post({ name: 'acme/empty', repository_url: empty.url });
    expect(dup.statusCode).toBe(409);
  });

  it('yanks, unyanks and deprecates by normalized version', async () => {
    const r = repo('acme/flags');
    r.release('v1.0.0');
    await addSyncedPackage(t, 'acme/flags', r.url);
    // One download of the version, so the answers below show its count.
    const customer = await createCustomer(t, 'Flags Customer');
    const admin = { ...t.admin, 'content-type': 'application/json' };
    await t.app.inject({
      method: 'POST',
      url: `/api/v1/customers/${customer.id}/packages`,
      headers: admin,
      payload: { package: 'acme/flags', constraint: '*' },
    });
    const token = (
      await t.app.inject({
        method: 'POST',
        url: `/api/v1/customers/${customer.id}/tokens`,
        headers: admin,
        payload: { name: 'ci' },
      })
    ).json().plain_token as string;
    const basic = `Basic ${Buffer.from(`token:${token}`).toString('base64')}`;
    const zip = await t.app.inject({
      url: '/dist/acme/flags/1.0.0.0.zip',
      headers: { authorization: basic },
    });
    expect(zip.statusCode).toBe(200);

    const yank = await t.app.inject({
      method: 'POST',
      url: '/api/v1/packages/acme/flags/yank/1.0.0.0',
      headers: t.admin,
    });
    expect(yank.json()).toMatchObject({ version: 'v1.0.0', yanked: true, downloads: 1 });
    const dep = await t.app.inject({
      method: 'POST',
      url: '/api/v1/packages/acme/flags/deprecate/v1.0.0',
      headers: t.admin,
    });
    expect(dep.json()).toMatchObject({ yanked: true, deprecated: true });
    const unyank = await t.app.inject({
      method: 'POST',
      url: '/api/v1/packages/acme/flags/unyank/1.0.0',
      headers: t.admin,
    });
    expect(unyank.json().yanked).toBe(false);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/v1/packages/acme/flags/yank/9.9.9',
      headers: t.admin,
    });
    expect(unknown.statusCode).toBe(404);
    const garbage = await t.app.inject({
      method: 'POST',
      url: '/api/v1/packages/acme/flags/yank/..%2F..',
      headers: t.admin,
    });
    expect(garbage.statusCode).toBe(400);
  });
});
