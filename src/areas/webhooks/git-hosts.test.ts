import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { insertPackageRow } from '../../../test/factories.js';
import { repositoryKey } from '../../infra/git/repository-url.js';

const GITHUB_SECRET = 'gh-hook-secret';
const GITLAB_SECRET = 'gl-hook-token';
const BITBUCKET_SECRET = 'bb-hook-secret';
const MAX_BYTES = 16 * 1024;

let t: TestApp;
beforeAll(async () => {
  // No worker: queued syncs stay visible as pending tasks, and nothing reaches the hosts.
  t = await createTestApp({
    WORKER: 'off',
    GITHUB_WEBHOOK_SECRET: GITHUB_SECRET,
    GITLAB_WEBHOOK_SECRET: GITLAB_SECRET,
    BITBUCKET_WEBHOOK_SECRET: BITBUCKET_SECRET,
    WEBHOOK_MAX_BYTES: String(MAX_BYTES),
  });
});
afterAll(async () => t.close());

const hmac = (secret: string, body: string) =>
  `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`;

/** A package whose repository is `url` (added as a row: these hosts are not reachable here). */
async function gitPackage(name: string, url: string): Promise<string> {
  const id = await insertPackageRow(t, name);
  await t.db
    .updateTable('packages')
    .set({ repository_url: url, repository_key: repositoryKey(url) })
    .where('id', '=', id)
    .execute();
  return id;
}

async function api(url: string, headers: object = t.admin) {
  return t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { ...headers } });
}

/** Names of the packages with a queued (pending) sync task. */
async function queuedSyncs(): Promise<string[]> {
  const res = await api('/tasks?type=package.sync&status=pending&per_page=100');
  expect(res.statusCode).toBe(200);
  return res
    .json()
    .data.map((task: { payload: { package: string } }) => task.payload.package)
    .sort();
}

async function syncTaskCount(): Promise<number> {
  return (await api('/tasks?type=package.sync&per_page=100')).json().pagination.total;
}

function deliver(route: string, body: string, headers: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: `/api/webhooks/${route}`,
    payload: body,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

function githubPush(fullName: string, tag = 'v1.2.0') {
  const [owner = 'acme', name = 'lib'] = fullName.split('/');
  return {
    ref: `refs/tags/${tag}`,
    before: '0000000000000000000000000000000000000000',
    after: '6113728f27ae82c7b1a177c8d03f9e96e0adf246',
    created: true,
    deleted: false,
    forced: false,
    base_ref: 'refs/heads/main',
    compare: `https://github.com/${fullName}/compare/${tag}`,
    commits: [],
    head_commit: {
      id: '6113728f27ae82c7b1a177c8d03f9e96e0adf246',
      message: `Release ${tag}`,
      timestamp: '2026-11-22T10:00:00Z',
      author: { name: 'Octo Cat', email: 'octocat@example.test', username: 'octocat' },
    },
    repository: {
      id: 1296269,
      node_id: 'MDEwOlJlcG9zaXRvcnkxMjk2MjY5',
      name,
      full_name: fullName,
      private: true,
      owner: { name: owner, login: owner, id: 1, type: 'Organization' },
      html_url: `https://github.com/${fullName}`,
      url: `https://github.com/${fullName}`,
      git_url: `git://github.com/${fullName}.git`,
      ssh_url: `git@github.com:${fullName}.git`,
      clone_url: `https://github.com/${fullName}.git`,
      svn_url: `https://github.com/${fullName}`,
      default_branch: 'main',
      master_branch: 'main',
    },
    pusher: { name: 'octocat', email: 'octocat@example.test' },
    sender: { login: 'octocat', id: 1, type: 'User' },
  };
}

function github(event: string, payload: unknown, delivery: string = crypto.randomUUID()) {
  const body = JSON.stringify(payload);
  return deliver('github', body, {
    'user-agent': 'GitHub-Hookshot/a1b2c3d',
    'x-github-event': event,
    'x-github-delivery': delivery,
    'x-github-hook-id': '292430182',
    'x-hub-signature-256': hmac(GITHUB_SECRET, body),
  });
}

function gitlabPush(host: string, path: string, kind: 'Push Hook' | 'Tag Push Hook') {
  const web = `https://${host}/${path}`;
  const name = path.split('/').pop();
  return {
    object_kind: kind === 'Push Hook' ? 'push' : 'tag_push',
    event_name: kind === 'Push Hook' ? 'push' : 'tag_push',
    before: '0000000000000000000000000000000000000000',
    after: '82b3d5ae55f7080f1e6022629cdb57bfae7cccc7',
    ref: kind === 'Push Hook' ? 'refs/heads/main' : 'refs/tags/v1.2.0',
    ref_protected: true,
    checkout_sha: '82b3d5ae55f7080f1e6022629cdb57bfae7cccc7',
    user_id: 1,
    user_name: 'Administrator',
    user_username: 'root',
    project_id: 15,
    project: {
      id: 15,
      name,
      description: '',
      web_url: web,
      git_ssh_url: `git@${host}:${path}.git`,
      git_http_url: `${web}.git`,
      namespace: path.split('/')[0],
      visibility_level: 0,
      path_with_namespace: path,
      default_branch: 'main',
      homepage: web,
      url: `git@${host}:${path}.git`,
      ssh_url: `git@${host}:${path}.git`,
      http_url: `${web}.git`,
    },
    commits: [],
    total_commits_count: 0,
    repository: {
      name,
      url: `git@${host}:${path}.git`,
      description: '',
      homepage: web,
      git_http_url: `${web}.git`,
      git_ssh_url: `git@${host}:${path}.git`,
      visibility_level: 0,
    },
  };
}

function gitlab(
  event: string,
  payload: unknown,
  uuid: string = crypto.randomUUID(),
  token = GITLAB_SECRET,
) {
  return deliver('gitlab', JSON.stringify(payload), {
    'user-agent': 'GitLab/17.5.0',
    'x-gitlab-event': event,
    'x-gitlab-event-uuid': uuid,
    'x-gitlab-instance': 'https://gitlab.example.com',
    'x-gitlab-webhook-uuid': '2e8e7c52-0d5b-4c8a-9d6d-6d1c1f2b3a4b',
    'x-gitlab-token': token,
  });
}

function bitbucketPush(fullName: string) {
  const [workspace = 'acme', name = 'lib'] = fullName.split('/');
  return {
    push: {
      changes: [
        {
          old: null,
          new: {
            type: 'tag',
            name: 'v1.2.0',
            target: { type: 'commit', hash: '709d658dc5b6d6afcd46049c2f332ee3f515a67d' },
          },
          created: true,
          closed: false,
          forced: false,
        },
      ],
    },
    actor: { display_name: 'Ada', type: 'user', uuid: '{d2f6b4a1-0000-4000-8000-000000000001}' },
    repository: {
      type: 'repository',
      full_name: fullName,
      name,
      uuid: '{5b3c2f4e-0000-4000-8000-000000000002}',
      is_private: true,
      scm: 'git',
      links: {
        self: { href: `https://api.bitbucket.org/2.0/repositories/${fullName}` },
        html: { href: `https://bitbucket.org/${fullName}` },
        avatar: { href: `https://bytebucket.org/ravatar/%7B5b3c2f4e%7D?ts=php` },
      },
      owner: { type: 'team', username: workspace, display_name: workspace },
      workspace: { type: 'workspace', slug: workspace, name: workspace },
    },
  };
}

function bitbucket(event: string, payload: unknown, signature?: string) {
  const body = JSON.stringify(payload);
  return deliver('bitbucket', body, {
    'user-agent': 'Bitbucket-Webhooks/2.0',
    'x-event-key': event,
    'x-request-uuid': crypto.randomUUID(),
    'x-hook-uuid': '{6a3b1c2d-0000-4000-8000-000000000003}',
    'x-attempt-number': '1',
    'x-hub-signature': signature ?? hmac(BITBUCKET_SECRET, body),
  });
}

describe('GitHub pushes', () => {
  it('queues the sync of every package using the repository, in any URL form', async () => {
    await gitPackage('gh/lib', 'https://github.com/Acme/Lib.git');
    await gitPackage('gh/lib-ssh', 'git@github.com:acme/lib.git');
    await gitPackage('gh/lib-token', 'https://x-access-token:abc@github.com/acme/lib');
    await gitPackage('gh/other', 'https://github.com/acme/other.git');
    await gitPackage('gh/elsewhere', 'https://gitlab.com/acme/lib.git');

    const res = await github('push', githubPush('Acme/Lib'));
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({
      provider: 'github',
      event: 'push',
      status: 'queued',
      packages: ['gh/lib', 'gh/lib-ssh', 'gh/lib-token'],
    });
    expect(await queuedSyncs()).toEqual(['gh/lib', 'gh/lib-ssh', 'gh/lib-token']);
  });

  it('handles create, delete and release alike, reusing a sync already pending', async () => {
    const before = await syncTaskCount();
    for (const event of ['create', 'delete', 'release']) {
      const res = await github(event, { ...githubPush('acme/lib'), action: 'published' });
      expect(res.statusCode).toBe(202);
      expect(res.json().packages).toEqual(['gh/lib', 'gh/lib-ssh', 'gh/lib-token']);
    }
    expect(await syncTaskCount()).toBe(before);
  });

  it('processes a replayed X-GitHub-Delivery once', async () => {
    await gitPackage('gh/replayed', 'https://github.com/acme/replayed');
    const payload = githubPush('acme/replayed');
    const first = await github('push', payload, 'delivery-replayed');
    expect(first.statusCode).toBe(202);
    const tasks = await syncTaskCount();
    const again = await github('push', payload, 'delivery-replayed');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({
      status: 'duplicate',
      delivery_id: 'delivery-replayed',
      packages: [],
    });
    expect(await syncTaskCount()).toBe(tasks);
  });

  it('refuses a bad or missing signature with 401 and queues nothing', async () => {
    await gitPackage('gh/guarded', 'https://github.com/acme/guarded.git');
    const body = JSON.stringify(githubPush('acme/guarded'));
    const tasks = await syncTaskCount();
    for (const signature of [
      undefined,
      hmac('wrong-secret', body),
      hmac(GITHUB_SECRET, `${body} `),
    ]) {
      const res = await deliver('github', body, {
        'x-github-event': 'push',
        'x-github-delivery': crypto.randomUUID(),
        ...(signature ? { 'x-hub-signature-256': signature } : {}),
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    }
    expect(await syncTaskCount()).toBe(tasks);
    const pkg = (await api('/packages/gh/guarded')).json();
    expect(pkg).toMatchObject({ sync_status: 'ok', versions: [] });
    const deliveries = (await api('/packages/gh/guarded/webhook-deliveries')).json();
    expect(deliveries.data).toEqual([]);
  });

  it('answers ping with pong, and ignores (and records) other events', async () => {
    const ping = await github('ping', { zen: 'Design for failure.', hook_id: 1 });
    expect(ping.statusCode).toBe(200);
    expect(ping.json()).toMatchObject({ status: 'processed', message: 'pong' });
    const star = await github('star', { action: 'created', repository: {} });
    expect(star.statusCode).toBe(200);
    expect(star.json()).toMatchObject({
      status: 'ignored',
      message: 'event star is not handled',
    });
    const list = (await api('/webhooks/deliveries?provider=github&per_page=1')).json();
    expect(list.data[0]).toMatchObject({ id: star.json().id, event: 'star', status: 'ignored' });
  });

  it('ignores a push for a repository no package uses', async () => {
    const res = await github('push', githubPush('nobody/nothing'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'ignored',
      message: 'no package uses this repository',
      packages: [],
    });
  });

  it('answers 400 VALIDATION_ERROR to a signed push without a repository, and lets it retry', async () => {
    for (const payload of [{ ref: 'refs/heads/main' }, { repository: 'acme/lib' }, [1, 2], 'x']) {
      const res = await github('push', payload, 'malformed-1');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
    const list = (await api('/webhooks/deliveries?provider=github&per_page=1')).json();
    expect(list.data[0]).toMatchObject({ status: 'failed', delivery_id: 'malformed-1' });
  });

  it('refuses a body over WEBHOOK_MAX_BYTES with 413', async () => {
    await gitPackage('gh/big', 'https://github.com/acme/big.git');
    const payload = { ...githubPush('acme/big'), commits: [{ message: 'x'.repeat(MAX_BYTES) }] };
    const tasks = await syncTaskCount();
    const res = await github('push', payload);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(await syncTaskCount()).toBe(tasks);
  });

  it('syncs a monorepo through its parent, once', async () => {
    const url = 'https://github.com/acme/mono.git';
    const parent = await gitPackage('gh/mono', url);
    const db = t.db;
    await db
      .insertInto('monorepos')
      .values({ package_id: parent, tenant_id: 'default', paths: '["packages/*"]' })
      .execute();
    for (const child of ['gh/mono-a', 'gh/mono-b']) {
      const id = await gitPackage(child, url);
      await db
        .insertInto('monorepo_children')
        .values({
          package_id: id,
          tenant_id: 'default',
          parent_id: parent,
          path: `packages/${child}`,
        })
        .execute();
    }
    const res = await github('push', githubPush('acme/mono'));
    expect(res.statusCode).toBe(202);
    expect(res.json().packages).toEqual(['gh/mono', 'gh/mono-a', 'gh/mono-b']);
    expect(res.json().message).toBe('sync queued for gh/mono');
    const queued = await queuedSyncs();
    expect(queued).toContain('gh/mono');
    expect(queued).not.toContain('gh/mono-a');
    expect(queued).not.toContain('gh/mono-b');
    const child = (await api('/packages/gh/mono-a/webhook-deliveries')).json();
    expect(child.data[0]).toMatchObject({ id: res.json().id, status: 'queued' });
  });

  it('accepts the provider-a alias', async () => {
    const body = JSON.stringify(githubPush('acme/replayed'));
    const res = await deliver('provider-a', body, {
      'x-github-event': 'push',
      'x-github-delivery': crypto.randomUUID(),
      'x-hub-signature-256': hmac(GITHUB_SECRET, body),
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ provider: 'github', packages: ['gh/replayed'] });
  });
});

describe('GitLab pushes', () => {
  it('queues matching packages on Push Hook and Tag Push Hook, subgroups included', async () => {
    await gitPackage('gl/lib', 'https://gitlab.example.com/group/sub/lib.git');
    await gitPackage('gl/lib-ssh', 'ssh://git@GitLab.example.com/group/sub/lib.git');
    await gitPackage('gl/lib-scp', 'git@gitlab.example.com:group/sub/lib');
    await gitPackage('gl/parent-group', 'https://gitlab.example.com/group/sub.git');

    const push = await gitlab(
      'Push Hook',
      gitlabPush('gitlab.example.com', 'group/sub/lib', 'Push Hook'),
    );
    expect(push.statusCode).toBe(202);
    expect(push.json()).toMatchObject({
      provider: 'gitlab',
      event: 'Push Hook',
      status: 'queued',
      packages: ['gl/lib', 'gl/lib-scp', 'gl/lib-ssh'],
    });
    const tag = await gitlab(
      'Tag Push Hook',
      gitlabPush('gitlab.example.com', 'group/sub/lib', 'Tag Push Hook'),
    );
    expect(tag.statusCode).toBe(202);
    expect(tag.json().packages).toEqual(['gl/lib', 'gl/lib-scp', 'gl/lib-ssh']);
    const queued = await queuedSyncs();
    expect(queued).toEqual(expect.arrayContaining(['gl/lib', 'gl/lib-scp', 'gl/lib-ssh']));
    expect(queued).not.toContain('gl/parent-group');
  });

  it('matches the older payload with only `repository` fields', async () => {
    await gitPackage('gl/legacy', 'git@gitlab.example.com:mike/diaspora.git');
    const { repository } = gitlabPush('gitlab.example.com', 'mike/diaspora', 'Push Hook');
    const res = await gitlab('Push Hook', {
      object_kind: 'push',
      ref: 'refs/heads/main',
      repository,
    });
    expect(res.statusCode).toBe(202);
    expect(res.json().packages).toEqual(['gl/legacy']);
  });

  it('processes a replayed X-Gitlab-Event-UUID once', async () => {
    await gitPackage('gl/replayed', 'https://gitlab.example.com/acme/replayed');
    const payload = gitlabPush('gitlab.example.com', 'acme/replayed', 'Tag Push Hook');
    const first = await gitlab('Tag Push Hook', payload, 'gl-uuid-1');
    expect(first.statusCode).toBe(202);
    const tasks = await syncTaskCount();
    const again = await gitlab('Tag Push Hook', payload, 'gl-uuid-1');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ status: 'duplicate', delivery_id: 'gl-uuid-1' });
    expect(await syncTaskCount()).toBe(tasks);
  });

  it('refuses a wrong or missing X-Gitlab-Token with 401 and queues nothing', async () => {
    await gitPackage('gl/guarded', 'https://gitlab.example.com/acme/guarded');
    const payload = gitlabPush('gitlab.example.com', 'acme/guarded', 'Push Hook');
    const tasks = await syncTaskCount();
    expect((await gitlab('Push Hook', payload, undefined, 'nope')).statusCode).toBe(401);
    const missing = await deliver('gitlab', JSON.stringify(payload), {
      'x-gitlab-event': 'Push Hook',
    });
    expect(missing.statusCode).toBe(401);
    expect(await syncTaskCount()).toBe(tasks);
    const refused = (await api('/webhooks/deliveries?provider=gitlab&per_page=2')).json();
    expect(refused.data).toHaveLength(2);
    for (const d of refused.data) {
      expect(d).toMatchObject({
        status: 'rejected',
        signature_ok: false,
        event: 'Push Hook',
        packages: [],
      });
    }
  });

  it('ignores other events, and 400s a push without project or repository', async () => {
    const note = await gitlab('Note Hook', { object_kind: 'note' });
    expect(note.statusCode).toBe(200);
    expect(note.json()).toMatchObject({
      status: 'ignored',
      message: 'event Note Hook is not handled',
    });
    const bad = await gitlab('Push Hook', { object_kind: 'push', project: { id: 1 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});

describe('Bitbucket pushes', () => {
  it('queues matching packages on repo:push', async () => {
    await gitPackage('bb/lib', 'https://bitbucket.org/acme/lib.git');
    await gitPackage('bb/lib-ssh', 'git@bitbucket.org:Acme/lib.git');
    await gitPackage('bb/lib-user', 'https://ada@bitbucket.org/acme/lib.git');
    await gitPackage('bb/other', 'https://bitbucket.org/acme/lib-other.git');
    const res = await bitbucket('repo:push', bitbucketPush('acme/lib'));
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({
      provider: 'bitbucket',
      event: 'repo:push',
      status: 'queued',
      packages: ['bb/lib', 'bb/lib-ssh', 'bb/lib-user'],
    });
    expect(await queuedSyncs()).not.toContain('bb/other');
  });

  it('uses clone links when the payload carries them', async () => {
    await gitPackage('bb/cloned', 'git@bitbucket.example.com:acme/cloned.git');
    const payload = bitbucketPush('acme/cloned');
    const links = payload.repository.links as Record<string, unknown>;
    links.clone = [
      { name: 'https', href: 'https://ada@bitbucket.example.com/acme/cloned.git' },
      { name: 'ssh', href: 'git@bitbucket.example.com:acme/cloned.git' },
    ];
    const res = await bitbucket('repo:push', payload);
    expect(res.json().packages).toEqual(['bb/cloned']);
  });

  it('does not take the per-webhook X-Hook-UUID for a delivery id', async () => {
    const one = await bitbucket('repo:push', bitbucketPush('acme/lib'));
    const two = await bitbucket('repo:push', bitbucketPush('acme/lib'));
    expect([one.statusCode, two.statusCode]).toEqual([202, 202]);
    expect(one.json().delivery_id).not.toBe(two.json().delivery_id);
  });

  it('refuses a bad signature, ignores other events, 400s a payload without repository', async () => {
    const tasks = await syncTaskCount();
    const bad = await bitbucket('repo:push', bitbucketPush('acme/lib'), hmac('wrong', '{}'));
    expect(bad.statusCode).toBe(401);
    expect(await syncTaskCount()).toBe(tasks);
    const pr = await bitbucket('pullrequest:created', { pullrequest: { id: 1 } });
    expect(pr.json()).toMatchObject({
      status: 'ignored',
      message: 'event pullrequest:created is not handled',
    });
    const malformed = await bitbucket('repo:push', {
      push: { changes: [] },
      repository: { links: {} },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});

describe('webhook delivery listings', () => {
  it('lists a package’s deliveries newest first with matched packages, status and duration', async () => {
    await gitPackage('ls/lib', 'https://github.com/listing/lib.git');
    const first = await github('push', githubPush('listing/lib', 'v1.0.0'), 'ls-1');
    const second = await github('release', githubPush('listing/lib', 'v1.1.0'), 'ls-2');
    expect([first.statusCode, second.statusCode]).toEqual([202, 202]);

    const res = await api('/packages/ls/lib/webhook-deliveries');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.pagination).toEqual({ page: 1, per_page: 25, total: 2, total_pages: 1 });
    expect(body.data.map((d: { delivery_id: string }) => d.delivery_id)).toEqual(['ls-2', 'ls-1']);
    expect(body.data[1]).toEqual({
      id: first.json().id,
      provider: 'github',
      event: 'push',
      delivery_id: 'ls-1',
      status: 'queued',
      signature_ok: true,
      packages: ['ls/lib'],
      message: 'sync queued for ls/lib',
      duration_ms: expect.any(Number),
      received_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(body.data[1].duration_ms).toBeGreaterThanOrEqual(0);

    const page2 = (await api('/packages/ls/lib/webhook-deliveries?page=2&per_page=1')).json();
    expect(page2.pagination).toEqual({ page: 2, per_page: 1, total: 2, total_pages: 2 });
    expect(page2.data[0].delivery_id).toBe('ls-1');
  });

  it('validates paging and the provider filter, and 404s an unknown package', async () => {
    expect((await api('/packages/ls/lib/webhook-deliveries?per_page=101')).statusCode).toBe(400);
    expect((await api('/packages/ls/lib/webhook-deliveries?page=0')).statusCode).toBe(400);
    expect((await api('/webhooks/deliveries?provider=svn')).statusCode).toBe(400);
    const missing = await api('/packages/nobody/nothing/webhook-deliveries');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('lets viewer tokens read both listings, and requires a token', async () => {
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/v1/team/tokens',
      headers: t.admin,
      payload: { name: 'viewer', level: 'viewer' },
    });
    expect(made.statusCode).toBe(201);
    const viewer = { authorization: `Bearer ${made.json().plain_token}` };
    expect((await api('/packages/ls/lib/webhook-deliveries', viewer)).statusCode).toBe(200);
    const all = await api('/webhooks/deliveries', viewer);
    expect(all.statusCode).toBe(200);
    const statuses = new Set(all.json().data.map((d: { status: string }) => d.status));
    expect(all.json().pagination.total).toBeGreaterThan(10);
    expect(
      (await api('/webhooks/deliveries?per_page=100'))
        .json()
        .data.map((d: { status: string }) => d.status),
    ).toEqual(
      expect.arrayContaining(['queued', 'ignored', 'duplicate', 'rejected', 'failed', 'processed']),
    );
    expect(statuses.size).toBeGreaterThan(1);
    expect((await api('/webhooks/deliveries', {})).statusCode).toBe(401);
    const bitbucketOnly = (
      await api('/webhooks/deliveries?provider=bitbucket&per_page=100')
    ).json();
    expect(bitbucketOnly.data.length).toBeGreaterThan(0);
    expect(bitbucketOnly.data.every((d: { provider: string }) => d.provider === 'bitbucket')).toBe(
      true,
    );
  });
});
