import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitFixture } from '../fixtures/git-repo.js';
import { FakeGitHost } from '../fakes/git-host.js';
import { adminApi, addSyncedPackage, createCustomer } from '../factories.js';
import { waitFor } from '../helpers.js';
import { ComposerProject } from './composer-client.js';
import { startServer } from './server.js';
import type { RunningServer } from './server.js';

/**
 * For each git host: a new tag in a real repository, the host's signed push delivered over HTTP
 * as the host sends it, the sync running in the background, and the real Composer client
 * installing the new version.
 */
const SECRETS = { github: 'gh-e2e-secret', gitlab: 'gl-e2e-token', bitbucket: 'bb-e2e-secret' };

let s: RunningServer;
let host: FakeGitHost;
let token: string;
const fixtures: Record<string, GitFixture> = {};
const cleanup: (() => void)[] = [];

const api = (method: string, url: string, payload?: unknown) => adminApi(s)(method, url, payload);
const hmac = (secret: string, body: string) =>
  `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`;

beforeAll(async () => {
  host = await FakeGitHost.start();
  s = await startServer({
    GITHUB_WEBHOOK_SECRET: SECRETS.github,
    GITLAB_WEBHOOK_SECRET: SECRETS.gitlab,
    BITBUCKET_WEBHOOK_SECRET: SECRETS.bitbucket,
  });
  const customer = await createCustomer(s, 'Webhook Customer');
  for (const name of ['gh-lib', 'gl-lib', 'bb-lib']) {
    const fixture = new GitFixture(`acme/${name}`);
    fixture.release('1.0.0');
    cleanup.push(() => fixture.remove());
    fixtures[name] = fixture;
    const url = host.serve(`acme/${name}`, fixture.dir);
    const pkg = await addSyncedPackage(s, `acme/${name}`, url);
    expect(pkg.latest_version, pkg.sync_error).toBe('1.0.0');
    await api('POST', `/api/v1/customers/${customer.id}/packages`, {
      package: `acme/${name}`,
      constraint: '*',
    });
  }
  token = (await api('POST', `/api/v1/customers/${customer.id}/tokens`, { name: 'ci' }))
    .plain_token;
});

afterAll(async () => {
  await s?.close();
  await host?.close();
  cleanup.forEach((fn) => fn());
});

/** POSTs the body with the host's headers, as the host's webhook sender does. */
async function send(route: string, body: string, headers: Record<string, string>) {
  const res = await fetch(`${s.url}/api/webhooks/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Waits for the sync to publish `version`, then installs it with the real Composer client. */
async function expectInstallable(name: string, version: string) {
  // The delivery set the package pending before answering; wait for that sync to finish.
  const pkg = await waitFor(
    () => api('GET', `/api/v1/packages/${name}`),
    (p) => !['pending', 'running'].includes(p.sync_status),
  );
  expect(pkg.sync_status, pkg.sync_error).toBe('ok');
  expect(pkg.versions.map((v: { version: string }) => v.version)).toContain(version);
  const project = new ComposerProject(s.url, token);
  cleanup.push(() => project.remove());
  const res = await project.run(['require', `${name}:^${version}`]);
  expect(res.code, res.output).toBe(0);
  expect(project.lockedVersion(name)).toBe(version);
  expect(project.installedFile(name, 'src/Version.php')).toContain(`'${version}'`);
}

/** The repository's web URL on the fake host (what the hosts call html_url / web_url). */
const webUrl = (name: string) => `${host.url}/acme/${name}`;
const sshUrl = (name: string) => `git@${new URL(host.url).hostname}:acme/${name}.git`;

describe('git-host webhooks with the real composer client', () => {
  it('GitHub: a signed tag push makes the new version installable', async () => {
    const fixture = fixtures['gh-lib']!;
    fixture.release('1.1.0');
    const after = fixture.git('rev-parse', 'HEAD').trim();
    const body = JSON.stringify({
      ref: 'refs/tags/1.1.0',
      before: '0000000000000000000000000000000000000000',
      after,
      created: true,
      deleted: false,
      base_ref: 'refs/heads/main',
      commits: [],
      repository: {
        id: 1,
        name: 'gh-lib',
        full_name: 'acme/gh-lib',
        private: true,
        html_url: webUrl('gh-lib'),
        git_url: `git://${new URL(host.url).host}/acme/gh-lib.git`,
        ssh_url: sshUrl('gh-lib'),
        clone_url: `${webUrl('gh-lib')}.git`,
        default_branch: 'main',
      },
      pusher: { name: 'octocat', email: 'octocat@example.test' },
      sender: { login: 'octocat', id: 1 },
    });
    const res = await send('github', body, {
      'user-agent': 'GitHub-Hookshot/e2e',
      'x-github-event': 'push',
      'x-github-delivery': crypto.randomUUID(),
      'x-hub-signature-256': hmac(SECRETS.github, body),
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'queued', packages: ['acme/gh-lib'] });
    await expectInstallable('acme/gh-lib', '1.1.0');
  });

  it('GitLab: a Tag Push Hook with the secret token makes the new version installable', async () => {
    const fixture = fixtures['gl-lib']!;
    fixture.release('1.1.0');
    const sha = fixture.git('rev-parse', 'HEAD').trim();
    const project = {
      id: 7,
      name: 'gl-lib',
      web_url: webUrl('gl-lib'),
      git_ssh_url: sshUrl('gl-lib'),
      git_http_url: `${webUrl('gl-lib')}.git`,
      namespace: 'acme',
      path_with_namespace: 'acme/gl-lib',
      default_branch: 'main',
    };
    const body = JSON.stringify({
      object_kind: 'tag_push',
      event_name: 'tag_push',
      before: '0000000000000000000000000000000000000000',
      after: sha,
      ref: 'refs/tags/1.1.0',
      checkout_sha: sha,
      user_username: 'root',
      project_id: 7,
      project,
      commits: [],
      total_commits_count: 0,
      repository: {
        name: 'gl-lib',
        url: project.git_ssh_url,
        homepage: project.web_url,
        git_http_url: project.git_http_url,
        git_ssh_url: project.git_ssh_url,
      },
    });
    const res = await send('gitlab', body, {
      'user-agent': 'GitLab/17.5.0',
      'x-gitlab-event': 'Tag Push Hook',
      'x-gitlab-event-uuid': crypto.randomUUID(),
      'x-gitlab-token': SECRETS.gitlab,
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'queued', packages: ['acme/gl-lib'] });
    await expectInstallable('acme/gl-lib', '1.1.0');
  });

  it('Bitbucket: a signed repo:push makes the new version installable', async () => {
    const fixture = fixtures['bb-lib']!;
    fixture.release('1.1.0');
    const hash = fixture.git('rev-parse', 'HEAD').trim();
    const body = JSON.stringify({
      push: {
        changes: [
          {
            old: null,
            new: { type: 'tag', name: '1.1.0', target: { type: 'commit', hash } },
            created: true,
            closed: false,
            forced: false,
          },
        ],
      },
      actor: { display_name: 'Ada', type: 'user' },
      repository: {
        type: 'repository',
        full_name: 'acme/bb-lib',
        name: 'bb-lib',
        is_private: true,
        scm: 'git',
        links: { html: { href: webUrl('bb-lib') } },
      },
    });
    const res = await send('provider-c', body, {
      'user-agent': 'Bitbucket-Webhooks/2.0',
      'x-event-key': 'repo:push',
      'x-request-uuid': crypto.randomUUID(),
      'x-hook-uuid': '{6a3b1c2d-0000-4000-8000-000000000003}',
      'x-hub-signature': hmac(SECRETS.bitbucket, body),
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      provider: 'bitbucket',
      status: 'queued',
      packages: ['acme/bb-lib'],
    });
    await expectInstallable('acme/bb-lib', '1.1.0');

    const deliveries = await api('GET', '/api/v1/packages/acme/bb-lib/webhook-deliveries');
    expect(deliveries.data[0]).toMatchObject({
      provider: 'bitbucket',
      event: 'repo:push',
      status: 'queued',
      signature_ok: true,
      packages: ['acme/bb-lib'],
    });
  });
});
