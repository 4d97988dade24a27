import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import { adminApi, createCustomer, waitForSync } from '../../../test/factories.js';
import { waitFor } from '../../../test/helpers.js';
import { ComposerProject } from '../../../test/e2e/composer-client.js';
import { startServer } from '../../../test/e2e/server.js';
import type { RunningServer } from '../../../test/e2e/server.js';
import { FakeGitHubApi, generateAppKey } from '../../../test/fakes/github-api.js';

const SECRET = 'hostapp-e2e-secret';
let s: RunningServer;
let api: FakeGitHubApi;
let lib: GitFixture;
const cleanup: (() => void)[] = [];

beforeAll(async () => {
  const key = generateAppKey();
  api = await FakeGitHubApi.start({ appId: '31337', publicKey: key.publicKey });
  lib = new GitFixture('acme/secret-lib');
  lib.release('1.0.0').release('1.2.0');
  cleanup.push(() => lib.remove());
  api.addRepository({ fullName: 'acme/secret-lib', dir: lib.dir, private: true });
  api.addInstallation({
    id: 501,
    account: { login: 'acme', type: 'Organization' },
    repository_selection: 'selected',
    repositories: ['acme/secret-lib'],
  });
  s = await startServer({
    ...api.env,
    GITHUB_APP_ID: '31337',
    GITHUB_APP_PRIVATE_KEY: key.privateKey,
    GITHUB_APP_SLUG: 'packyard-e2e',
    HOSTAPP_WEBHOOK_SECRET: SECRET,
  });
});

afterAll(async () => {
  await s?.close();
  await api?.host.close();
  cleanup.forEach((fn) => fn());
});

describe('the GitHub App end to end', () => {
  it('clones a private repository with the installation token; Composer installs it', async () => {
    const call = adminApi(s);
    // Without the app the private repository refuses anonymous clones: the first sync fails.
    const anonymous = await s.app.inject({
      method: 'POST',
      url: '/api/v1/packages',
      headers: s.admin,
      payload: { name: 'acme/secret-lib', repository_url: api.host.cloneUrl('acme/secret-lib') },
    });
    expect(anonymous.statusCode, anonymous.body).toBe(201);
    const refused = await waitForSync(s, 'acme/secret-lib');
    expect(refused.sync_status).toBe('failed');
    expect(refused.sync_error).toMatch(/Authentication failed|could not read Username/);

    const installation = await call('POST', '/api/v1/hostapp/installations/claim', {
      installation_id: 501,
    });
    const task = await call('POST', `/api/v1/hostapp/installations/${installation.id}/sync`);
    const done = await waitFor(
      () => call('GET', `/api/v1/tasks/${task.id}`),
      (r) => ['done', 'failed'].includes(r.status),
    );
    // The package exists already (added above): the import queues its sync.
    expect(done.result).toEqual({ added: [], updated: ['acme/secret-lib'], skipped: [] });
    const pkg = await waitForSync(s, 'acme/secret-lib');
    expect(pkg.sync_status).toBe('ok');
    expect(api.gitRequestsWithToken('acme/secret-lib').length).toBeGreaterThan(0);

    const customer = await createCustomer(s, 'App Customer');
    await call('POST', `/api/v1/customers/${customer.id}/packages`, {
      package: 'acme/secret-lib',
      constraint: '^1.0',
    });
    const token = await call('POST', `/api/v1/customers/${customer.id}/tokens`, { name: 'ci' });
    const project = new ComposerProject(s.url, token.plain_token);
    cleanup.push(() => project.remove());
    const run = await project.run(['require', 'acme/secret-lib']);
    expect(run.code, run.output).toBe(0);
    expect(project.lockedVersion('acme/secret-lib')).toBe('1.2.0');
    expect(project.installedFile('acme/secret-lib', 'src/Version.php')).toContain("'1.2.0'");

    // A new tag announced through the App's webhook becomes installable.
    lib.release('1.3.0');
    const body = JSON.stringify({
      ref: 'refs/tags/1.3.0',
      repository: {
        full_name: 'acme/secret-lib',
        clone_url: api.host.cloneUrl('acme/secret-lib'),
        html_url: `${api.host.url}/acme/secret-lib`,
      },
      installation: { id: 501 },
    });
    const push = await fetch(`${s.url}/api/webhooks/hostapp`, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'push',
        'x-github-delivery': crypto.randomUUID(),
        'x-hub-signature-256': `sha256=${crypto.createHmac('sha256', SECRET).update(body).digest('hex')}`,
      },
    });
    expect(push.status).toBe(202);
    expect(await push.json()).toMatchObject({ status: 'queued', packages: ['acme/secret-lib'] });
    const synced = await waitForSync(s, 'acme/secret-lib');
    expect(synced.versions.map((v: { version: string }) => v.version)).toContain('1.3.0');
    const update = await project.run(['update', 'acme/secret-lib']);
    expect(update.code, update.output).toBe(0);
    expect(project.lockedVersion('acme/secret-lib')).toBe('1.3.0');
  });
});
