import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudTenant, createTestApp, waitFor } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { insertPackageRow } from '../../../test/factories.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';

describe.each([
  ['ALLOW_LOCAL_REPOSITORIES=off', { ALLOW_LOCAL_REPOSITORIES: 'off' }],
  ['the Cloud edition', { EDITION: 'cloud' }],
])('adding packages with %s', (_label, env) => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp({ ...env, WORKER: 'off' });
    // In Cloud the registry is a tenant's, on its host, with its own token.
    admin = 'EDITION' in env ? (await cloudTenant(t, 'acme')).admin : t.admin;
  });
  afterAll(async () => t.close());

  const add = (name: string, url: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/packages',
      headers: admin,
      payload: { name, repository_url: url },
    });

  it('refuses repositories on the server itself and stores nothing', async () => {
    for (const url of ['/etc', 'file:///srv/app/.git']) {
      const res = await add('acme/local', url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [{ field: 'repository_url', message: expect.stringMatching(/server itself/) }],
      });
    }
    const missing = await t.app.inject({ url: '/api/v1/packages/acme/local', headers: admin });
    expect(missing.statusCode).toBe(404);
  });

  it('adds remote repositories', async () => {
    const res = await add('acme/remote', 'https://git.example.test/acme/remote.git');
    expect(res.statusCode, res.body).toBe(201);
  });

  it('refuses to sync a local repository stored while the setting was on', async () => {
    const git = new GitFixture('acme/stored-local').release('1.0.0');
    try {
      const id = await insertPackageRow(t, 'acme/stored-local');
      await t.db
        .updateTable('packages')
        .set({ repository_url: git.url })
        .where('id', '=', id)
        .execute();
      const refused =
        /^Repository unreachable: .* \(repositories on the server itself are not allowed: ALLOW_LOCAL_REPOSITORIES is off\)$/;
      await expect(t.runtime.services.sync.sync('default', id)).rejects.toThrow(refused);
      const row = await t.db
        .selectFrom('packages')
        .select(['sync_status', 'sync_error', 'latest_version'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ sync_status: 'failed', latest_version: null });
      expect(row.sync_error).toMatch(refused);
    } finally {
      git.remove();
    }
  });
});

describe('local repositories in the Cloud edition with ALLOW_LOCAL_REPOSITORIES=on', () => {
  // The setting alone governs file:// and absolute paths; the private-network check
  // (BLOCK_PRIVATE_GIT_HOSTS, on in Cloud) is for network hosts only.
  let t: TestApp;
  let admin: Record<string, string>;
  let byUrl: GitFixture;
  let byPath: GitFixture;
  beforeAll(async () => {
    t = await createTestApp({
      EDITION: 'cloud',
      ALLOW_LOCAL_REPOSITORIES: 'on',
      BLOCK_PRIVATE_GIT_HOSTS: 'on',
    });
    admin = (await cloudTenant(t, 'acme')).admin;
    byUrl = new GitFixture('acme/file-url').release('1.0.0');
    byPath = new GitFixture('acme/abs-path').release('1.0.0');
  });
  afterAll(async () => {
    await t.close();
    byUrl.remove();
    byPath.remove();
  });

  const add = (name: string, url: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/packages',
      headers: admin,
      payload: { name, repository_url: url },
    });
  const synced = (name: string) =>
    waitFor(
      async () =>
        (await t.app.inject({ url: `/api/v1/packages/${name}`, headers: admin })).json<{
          sync_status: string;
          sync_error: string | null;
          latest_version: string | null;
        }>(),
      (p) => !['pending', 'running'].includes(p.sync_status),
      { timeoutMs: 55_000 },
    );

  it('adds and syncs file:// and absolute-path repositories', async () => {
    for (const [name, url] of [
      ['acme/file-url', byUrl.url],
      ['acme/abs-path', byPath.dir],
    ] as const) {
      const res = await add(name, url);
      expect(res.statusCode, res.body).toBe(201);
      const pkg = await synced(name);
      expect(pkg, url).toMatchObject({ sync_status: 'ok', sync_error: null });
      expect(pkg.latest_version).toBe('1.0.0');
    }
  }, 120_000);

  it('still refuses network hosts on private networks, naming the host', async () => {
    expect((await add('acme/lan', 'http://127.0.0.1:1/acme/lib.git')).statusCode).toBe(201);
    const pkg = await synced('acme/lan');
    expect(pkg.sync_status).toBe('failed');
    expect(pkg.sync_error).toBe(
      'Repository unreachable: http://127.0.0.1:1/acme/lib.git (the host 127.0.0.1 is on a ' +
        'private network; hosts on private networks are not allowed)',
    );
  }, 60_000);
});
