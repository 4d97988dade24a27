import crypto from 'node:crypto';
import { loadConfig } from '../../config/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudTenant, createTestApp, graphqlBody, waitFor } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { waitForSync } from '../../../test/factories.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import { FakeGitHubApi, generateAppKey } from '../../../test/fakes/github-api.js';

const APP_ID = '4242';
const SLUG = 'packyard-test';
const SECRET = 'hostapp-webhook-secret';

let api: FakeGitHubApi;
let t: TestApp;
const fixtures: GitFixture[] = [];

function fixture(name: string): GitFixture {
  const f = new GitFixture(name);
  fixtures.push(f);
  return f;
}

beforeAll(async () => {
  const key = generateAppKey();
  api = await FakeGitHubApi.start({ appId: APP_ID, publicKey: key.publicKey });
  // acme/lib: a package; acme/docs: no composer.json; acme/broken: a composer.json without name.
  api.addRepository({ fullName: 'acme/lib', dir: fixture('acme/lib').release('v1.0.0').dir });
  api.addRepository({
    fullName: 'acme/docs',
    dir: fixture('acme/docs').write('README.md', '# Docs').commit('docs').dir,
  });
  api.addRepository({
    fullName: 'acme/broken',
    dir: fixture('acme/broken').write('composer.json', '{"type":"library"}').commit('x').dir,
  });
  api.addRepository({ fullName: 'beta/tool', dir: fixture('beta/tool').release('v0.1.0').dir });
  api.addInstallation({
    id: 77,
    account: { login: 'acme', type: 'Organization' },
    repository_selection: 'selected',
    repositories: ['acme/lib', 'acme/docs', 'acme/broken'],
  });
  api.addInstallation({
    id: 78,
    account: { login: 'beta', type: 'User' },
    repository_selection: 'all',
    repositories: [],
  });
  api.addInstallation({
    id: 88,
    account: { login: 'taken', type: 'Organization' },
    repository_selection: 'all',
    repositories: [],
  });
  t = await createTestApp({
    ...api.env,
    GITHUB_APP_ID: APP_ID,
    GITHUB_APP_PRIVATE_KEY: key.privateKey,
    GITHUB_APP_SLUG: SLUG,
    HOSTAPP_WEBHOOK_SECRET: SECRET,
  });
});

afterAll(async () => {
  await t?.close();
  await api?.host.close();
  fixtures.forEach((f) => f.remove());
});

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.admin });
const post = (url: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: t.admin, payload });

const claim = (installationId: number | string) =>
  post('/api/v1/hostapp/installations/claim', { installation_id: installationId });

let delivery = 0;
function webhook(event: string, payload: unknown, app: TestApp = t) {
  const body = JSON.stringify(payload);
  return app.app.inject({
    method: 'POST',
    url: '/api/webhooks/hostapp',
    payload: body,
    headers: {
      'content-type': 'application/json',
      'x-github-event': event,
      'x-github-delivery': `delivery-${++delivery}`,
      'x-hub-signature-256': `sha256=${crypto.createHmac('sha256', SECRET).update(body).digest('hex')}`,
    },
  });
}

/** POST …/sync answers 202 with a task; the import's summary is the task's result. */
async function syncInstallation(id: string) {
  const res = await post(`/api/v1/hostapp/installations/${id}/sync`);
  expect(res.statusCode, res.body).toBe(202);
  expect(res.json()).toMatchObject({ type: 'hostapp.sync', payload: { installation_id: id } });
  const done = await waitFor(
    () => get(`/api/v1/tasks/${res.json().id}`),
    (r) => ['done', 'failed'].includes(r.json().status),
  );
  expect(done.json().status, done.body).toBe('done');
  return done.json().result as { added: string[]; updated: string[]; skipped: unknown[] };
}

const gql = (query: string) => graphqlBody(t, query);

describe('GitHub App: not configured', () => {
  it('says so in status and refuses everything else with FEATURE_NOT_AVAILABLE', async () => {
    const bare = await createTestApp({ ...api.env });
    try {
      const status = await bare.app.inject({ url: '/api/v1/hostapp/status', headers: bare.admin });
      expect(status.statusCode).toBe(200);
      expect(status.json()).toEqual({
        configured: false,
        app_id: null,
        app_slug: null,
        install_url: null,
      });
      const calls: [string, string, object?][] = [
        ['GET', '/api/v1/hostapp/install-url'],
        ['GET', '/api/v1/hostapp/installations'],
        ['POST', '/api/v1/hostapp/installations/claim', { installation_id: 77 }],
        ['GET', '/api/v1/hostapp/installations/x'],
        ['GET', '/api/v1/hostapp/installations/by-host-id/77'],
        ['GET', '/api/v1/hostapp/installations/x/repositories'],
        ['POST', '/api/v1/hostapp/installations/x/sync'],
      ];
      for (const [method, url, payload] of calls) {
        const res = await bare.app.inject({
          method: method as 'GET',
          url,
          headers: bare.admin,
          payload,
        });
        expect(res.statusCode, url).toBe(403);
        expect(res.json(), url).toMatchObject({ code: 'FEATURE_NOT_AVAILABLE' });
      }
      // GraphQL asks the same service methods: the same rule, the same answer.
      const graphql = async (query: string) =>
        (
          await bare.app.inject({
            method: 'POST',
            url: '/graphql',
            headers: bare.admin,
            payload: { query },
          })
        ).json<{ data?: unknown; errors?: { extensions?: { code?: string } }[] }>();
      const status2 = await graphql('{ hostAppStatus { configured } }');
      expect(status2).toEqual({ data: { hostAppStatus: { configured: false } } });
      for (const query of [
        '{ hostAppInstallations { id } }',
        'mutation { removeHostAppInstallation(id: "x") }',
      ]) {
        const res = await graphql(query);
        expect(
          res.errors?.map((e) => e.extensions?.code),
          query,
        ).toEqual(['FEATURE_NOT_AVAILABLE']);
      }
    } finally {
      await bare.close();
    }
  });
});

describe('GitHub App settings', () => {
  it('refuse a private key that is not a readable PEM key at start, naming the setting', () => {
    const pem = generateAppKey().privateKey;
    const broken = pem.replace(/\n[A-Za-z0-9+/]{10}/, '\n!!!!!!!!!!');
    for (const value of ['not a key', broken]) {
      expect(() => loadConfig({ GITHUB_APP_PRIVATE_KEY: value })).toThrow(
        /GITHUB_APP_PRIVATE_KEY must be the App's PEM private key/,
      );
    }
    expect(
      loadConfig({ GITHUB_APP_PRIVATE_KEY: pem.replace(/\n/g, '\\n') }).githubApp.privateKey,
    ).toBe(pem);
  });
});

describe('GitHub App: a private key GitHub does not know', () => {
  it('is refused by GitHub, and the answer says so', async () => {
    const wrong = await createTestApp({
      ...api.env,
      GITHUB_APP_ID: APP_ID,
      GITHUB_APP_PRIVATE_KEY: generateAppKey().privateKey,
      GITHUB_APP_SLUG: SLUG,
    });
    try {
      const res = await wrong.app.inject({
        method: 'POST',
        url: '/api/v1/hostapp/installations/claim',
        headers: wrong.admin,
        payload: { installation_id: 77 },
      });
      expect(res.statusCode).toBe(502);
      expect(res.json()).toMatchObject({ error: 'upstream_error', code: 'UPSTREAM_ERROR' });
      expect(res.json().message).toContain('GitHub refused the app credentials (401)');
    } finally {
      await wrong.close();
    }
  });
});

describe('GitHub App: configured', () => {
  let installationId = '';

  it('reports its status and the install URL', async () => {
    const installUrl = `${api.host.url}/apps/${SLUG}/installations/new`;
    expect((await get('/api/v1/hostapp/status')).json()).toEqual({
      configured: true,
      app_id: APP_ID,
      app_slug: SLUG,
      install_url: installUrl,
    });
    const res = await get('/api/v1/hostapp/install-url');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ url: installUrl });
  });

  it('claims an installation GitHub confirms, once per tenant', async () => {
    const unknown = await claim(999);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect(
      (await post('/api/v1/hostapp/installations/claim', { installation_id: 'x' })).statusCode,
    ).toBe(400);

    const created = await claim(77);
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({
      host_installation_id: 77,
      account_login: 'acme',
      account_type: 'Organization',
      repository_selection: 'selected',
      status: 'active',
      repositories_count: 3,
    });
    expect(body.claimed_at).toEqual(expect.any(String));
    installationId = body.id;
    // The app JWT was accepted by the fake (it checks the RS256 signature with the public key).
    expect(api.host.requests.some((r) => r.path === '/api/v3/app/installations/77')).toBe(true);

    const again = await claim('77');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ id: installationId, host_installation_id: 77 });

    const list = await get('/api/v1/hostapp/installations');
    expect(list.json()).toMatchObject({
      data: [{ id: installationId, account_login: 'acme' }],
      pagination: { page: 1, total: 1 },
    });
    expect((await get(`/api/v1/hostapp/installations/${installationId}`)).json()).toMatchObject({
      id: installationId,
    });
    expect((await get('/api/v1/hostapp/installations/by-host-id/77')).json()).toMatchObject({
      id: installationId,
    });
    expect((await get('/api/v1/hostapp/installations/by-host-id/999')).statusCode).toBe(404);
    expect((await get('/api/v1/hostapp/installations/nope')).statusCode).toBe(404);

    const audit = await get('/api/v1/audit?action=hostapp.claim');
    expect(audit.json().data).toHaveLength(1);
  });

  it('refuses an installation another registry claimed with 409', async () => {
    const now = new Date().toISOString();
    await t.db
      .insertInto('hostapp_installations')
      .values({
        id: 'other-88',
        tenant_id: 'someone-else',
        host_installation_id: '88',
        account_login: 'taken',
        account_type: 'Organization',
        repository_selection: 'all',
        status: 'active',
        repositories: '[]',
        created_at: now,
        updated_at: now,
        claimed_at: now,
      })
      .execute();
    const res = await claim(88);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT' });
    expect((await get('/api/v1/hostapp/installations/by-host-id/88')).statusCode).toBe(404);
  });

  it('lists the installation repositories from GitHub, page after page', async () => {
    api.maxPerPage = 2;
    try {
      const res = await get(`/api/v1/hostapp/installations/${installationId}/repositories`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        data: [
          {
            full_name: 'acme/broken',
            clone_url: `${api.host.url}/acme/broken.git`,
            private: true,
            default_branch: 'main',
            package: null,
          },
          expect.objectContaining({ full_name: 'acme/docs', package: null }),
          expect.objectContaining({ full_name: 'acme/lib', package: null }),
        ],
        pagination: { page: 1, per_page: 25, total: 3, total_pages: 1 },
      });
      // The list envelope of every list: page and per_page.
      const second = await get(
        `/api/v1/hostapp/installations/${installationId}/repositories?page=2&per_page=2`,
      );
      expect(second.json()).toEqual({
        data: [expect.objectContaining({ full_name: 'acme/lib' })],
        pagination: { page: 2, per_page: 2, total: 3, total_pages: 2 },
      });
      const beyond = await get(
        `/api/v1/hostapp/installations/${installationId}/repositories?page=9&per_page=2`,
      );
      expect(beyond.json()).toEqual({
        data: [],
        pagination: { page: 9, per_page: 2, total: 3, total_pages: 2 },
      });
      const bad = await get(
        `/api/v1/hostapp/installations/${installationId}/repositories?per_page=101`,
      );
      expect(bad.statusCode).toBe(400);
    } finally {
      api.maxPerPage = 100;
    }
  });

  it('syncs: adds the repository with a composer.json, cloned with the installation token', async () => {
    expect(await syncInstallation(installationId)).toEqual({
      added: ['acme/lib'],
      updated: [],
      skipped: [
        { repository: 'acme/broken', reason: 'composer.json has no name' },
        { repository: 'acme/docs', reason: 'no composer.json on the default branch main' },
      ],
    });
    const pkg = await waitForSync(t, 'acme/lib');
    expect(pkg).toMatchObject({
      type: 'github',
      repository_url: `${api.host.url}/acme/lib.git`,
      sync_status: 'ok',
    });
    expect(pkg.versions.map((v: { version: string }) => v.version)).toContain('v1.0.0');
    // Added by the import task, audited as the admin who asked for it.
    const audit = await get('/api/v1/audit?action=package.add&target=acme/lib');
    expect(audit.json().data[0]).toMatchObject({ actor: { kind: 'root' } });
    // git http-backend answered behind the fake's auth: Basic x-access-token:ghs_….
    expect(api.gitRequestsWithToken('acme/lib').length).toBeGreaterThan(0);

    const repos = await get(`/api/v1/hostapp/installations/${installationId}/repositories`);
    const lib = repos.json().data.find((r: { full_name: string }) => r.full_name === 'acme/lib');
    expect(lib.package).toBe('acme/lib');
  });

  it('caches the installation token across syncs, and queues the existing package again', async () => {
    const before = api.accessTokenRequests(77).length;
    expect(before).toBe(1);
    expect(await syncInstallation(installationId)).toMatchObject({
      added: [],
      updated: ['acme/lib'],
    });
    await waitForSync(t, 'acme/lib');
    expect(api.accessTokenRequests(77)).toHaveLength(1);
  });

  it('mints a new token when the cached one is about to expire', async () => {
    api.tokenTtlSeconds = 120;
    try {
      const res = await claim(78);
      expect(res.statusCode).toBe(201);
      const id = res.json().id;
      expect(api.accessTokenRequests(78)).toHaveLength(1);
      await get(`/api/v1/hostapp/installations/${id}/repositories`);
      expect(api.accessTokenRequests(78)).toHaveLength(2);
      // An installation of all repositories of `beta` lends its token to beta/tool.
      expect(await syncInstallation(id)).toMatchObject({ added: ['beta/tool'] });
      expect((await waitForSync(t, 'beta/tool')).sync_status).toBe('ok');
    } finally {
      api.tokenTtlSeconds = 3600;
    }
  });

  it('GraphQL: status, installations, and removal', async () => {
    const q = await gql(
      `{ hostAppStatus { configured appId appSlug } hostAppInstallations { id accountLogin accountType repositorySelection status } }`,
    );
    expect(q.errors).toBeUndefined();
    expect(q.data!.hostAppStatus).toEqual({ configured: true, appId: APP_ID, appSlug: SLUG });
    const installs = q.data!.hostAppInstallations as { id: string; accountLogin: string }[];
    expect(installs.map((i) => i.accountLogin)).toEqual(['acme', 'beta']);
    expect(installs[0]).toEqual({
      id: installationId,
      accountLogin: 'acme',
      accountType: 'Organization',
      repositorySelection: 'selected',
      status: 'active',
    });
    const beta = installs[1]!.id;
    const removed = await gql(`mutation { removeHostAppInstallation(id: "${beta}") }`);
    expect(removed).toEqual({ data: { removeHostAppInstallation: true } });
    const again = await gql(`mutation { removeHostAppInstallation(id: "${beta}") }`);
    expect(again.errors?.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);
    expect((await get('/api/v1/hostapp/installations')).json().pagination.total).toBe(1);
    expect((await get('/api/v1/audit?action=hostapp.remove')).json().data).toHaveLength(1);
    // Detached: it lends no token any more, and it may be claimed again.
    await post('/api/v1/packages/beta/tool/sync');
    expect((await waitForSync(t, 'beta/tool')).sync_status).toBe('failed');
    expect((await claim(78)).statusCode).toBe(201);
  });
});

describe('GitHub App webhooks', () => {
  it('answers ping with pong, as the github route does', async () => {
    const ping = await webhook('ping', { zen: 'Keep it logically awesome.', hook_id: 1 });
    expect(ping.statusCode).toBe(200);
    expect(ping.json()).toMatchObject({ event: 'ping', status: 'processed', message: 'pong' });
  });

  it('records a new installation claimed at once (one registry), and follows its repositories', async () => {
    api.addInstallation({
      id: 90,
      account: { login: 'gamma', type: 'Organization' },
      repository_selection: 'selected',
      repositories: ['gamma/one'],
    });
    const installation = api.installationJson(api.installations.get(90)!);
    const created = await webhook('installation', {
      action: 'created',
      installation,
      repositories: [{ id: 1, name: 'one', full_name: 'gamma/one', private: true }],
    });
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({ event: 'installation', status: 'processed' });
    // No tenants on this server: the installation is the registry's at once, and listed.
    const listed = await get('/api/v1/hostapp/installations?per_page=100');
    const gamma = listed
      .json()
      .data.find((i: { host_installation_id: number }) => i.host_installation_id === 90);
    expect(gamma).toMatchObject({
      account_login: 'gamma',
      status: 'active',
      repositories_count: 1,
      claimed_at: expect.any(String),
    });
    expect((await get('/api/v1/hostapp/installations/by-host-id/90')).json()).toMatchObject({
      id: gamma.id,
    });
    const gql90 = await gql('{ hostAppInstallations { id accountLogin } }');
    expect(gql90.data!.hostAppInstallations).toContainEqual({
      id: gamma.id,
      accountLogin: 'gamma',
    });
    const audit = (await get('/api/v1/audit?action=hostapp.claim&per_page=100')).json().data;
    expect(audit.filter((a: { target: { id: string } }) => a.target.id === gamma.id)).toEqual([
      expect.objectContaining({
        action: 'hostapp.claim',
        actor: expect.objectContaining({ kind: 'webhook', id: 'hostapp' }),
      }),
    ]);

    const added = await webhook('installation_repositories', {
      action: 'added',
      installation,
      repository_selection: 'selected',
      repositories_added: [{ id: 2, name: 'two', full_name: 'gamma/two', private: true }],
      repositories_removed: [],
    });
    expect(added.json()).toMatchObject({ status: 'processed' });
    const removed = await webhook('installation_repositories', {
      action: 'removed',
      installation,
      repository_selection: 'selected',
      repositories_added: [],
      repositories_removed: [{ id: 1, name: 'one', full_name: 'gamma/one', private: true }],
    });
    expect(removed.json()).toMatchObject({ status: 'processed' });
    // Deliveries arriving together each keep their change (no lost update).
    const names = Array.from({ length: 12 }, (_, i) => `r${i}`);
    const together = await Promise.all(
      names.map((name, i) =>
        webhook('installation_repositories', {
          action: 'added',
          installation,
          repository_selection: 'selected',
          repositories_added: [{ id: 10 + i, name, full_name: `gamma/${name}`, private: true }],
          repositories_removed: [],
        }),
      ),
    );
    expect(together.every((r) => r.json().status === 'processed')).toBe(true);
    const afterAdding = await t.db
      .selectFrom('hostapp_installations')
      .select('repositories')
      .where('host_installation_id', '=', '90')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(afterAdding.repositories)).toHaveLength(1 + names.length);
    await webhook('installation_repositories', {
      action: 'removed',
      installation,
      repository_selection: 'selected',
      repositories_added: [],
      repositories_removed: names.map((name, i) => ({
        id: 10 + i,
        name,
        full_name: `gamma/${name}`,
        private: true,
      })),
    });
    const merged = await t.db
      .selectFrom('hostapp_installations')
      .select('repositories')
      .where('host_installation_id', '=', '90')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(merged.repositories)).toEqual(['gamma/two']);
    const row = await t.db
      .selectFrom('hostapp_installations')
      .selectAll()
      .where('host_installation_id', '=', '90')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ tenant_id: 'default', account_login: 'gamma', status: 'active' });
    expect(JSON.parse(row.repositories)).toEqual(['gamma/two']);

    // Claiming it anyway: it is ours already (200), and the claim is not audited twice.
    const claimed = await claim(90);
    expect(claimed.statusCode).toBe(200);
    expect(claimed.json()).toMatchObject({ id: row.id, account_login: 'gamma' });
    const claims = (await get('/api/v1/audit?action=hostapp.claim&per_page=100')).json().data;
    expect(claims.filter((a: { target: { id: string } }) => a.target.id === row.id)).toHaveLength(
      1,
    );

    const ignored = await webhook('star', { action: 'created' });
    expect(ignored.json()).toMatchObject({ status: 'ignored' });
  });

  it('first sight by several deliveries at once: one row, claimed once, no repository lost', async () => {
    const installation = {
      id: 91,
      account: { login: 'epsilon', type: 'Organization' },
      repository_selection: 'selected',
    };
    const names = Array.from({ length: 6 }, (_, i) => `e${i}`);
    const together = await Promise.all(
      names.map((name, i) =>
        webhook('installation_repositories', {
          action: 'added',
          installation,
          repository_selection: 'selected',
          repositories_added: [{ id: 100 + i, name, full_name: `epsilon/${name}`, private: true }],
          repositories_removed: [],
        }),
      ),
    );
    expect(together.map((r) => r.json().status)).toEqual(names.map(() => 'processed'));
    const rows = await t.db
      .selectFrom('hostapp_installations')
      .selectAll()
      .where('host_installation_id', '=', '91')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ tenant_id: 'default', account_login: 'epsilon' });
    expect(JSON.parse(rows[0]!.repositories).sort()).toEqual(names.map((n) => `epsilon/${n}`));
    const claims = (await get('/api/v1/audit?action=hostapp.claim&per_page=100')).json().data;
    expect(
      claims.filter((a: { target: { id: string } }) => a.target.id === rows[0]!.id),
    ).toHaveLength(1);
  });

  it('suspends and unsuspends; a deleted installation stops lending its token', async () => {
    const installation = api.installationJson(api.installations.get(77)!);
    const byHost = async () => (await get('/api/v1/hostapp/installations/by-host-id/77')).json();

    await webhook('installation', { action: 'suspend', installation });
    expect((await byHost()).status).toBe('suspended');
    const refused = await post(`/api/v1/hostapp/installations/${(await byHost()).id}/sync`);
    expect(refused.statusCode).toBe(409);
    await webhook('installation', { action: 'unsuspend', installation });
    expect((await byHost()).status).toBe('active');

    const before = api.gitRequestsWithToken('acme/lib').length;
    const deleted = await webhook('installation', { action: 'deleted', installation });
    expect(deleted.json()).toMatchObject({ status: 'processed' });
    expect((await byHost()).status).toBe('deleted');
    const sync = await post('/api/v1/packages/acme/lib/sync');
    expect(sync.statusCode).toBe(202);
    const pkg = await waitFor(
      async () => (await get('/api/v1/packages/acme/lib')).json(),
      (p) => !['pending', 'running'].includes(p.sync_status),
    );
    expect(pkg.sync_status).toBe('failed');
    expect(api.gitRequestsWithToken('acme/lib')).toHaveLength(before);
  });
});

describe('GitHub App webhooks in the Cloud edition', () => {
  it('records a new installation unclaimed: listed only once a registry claims it', async () => {
    const key = generateAppKey();
    const cloudApi = await FakeGitHubApi.start({ appId: APP_ID, publicKey: key.publicKey });
    const cloud = await createTestApp({
      ...cloudApi.env,
      EDITION: 'cloud',
      GITHUB_APP_ID: APP_ID,
      GITHUB_APP_PRIVATE_KEY: key.privateKey,
      GITHUB_APP_SLUG: SLUG,
      HOSTAPP_WEBHOOK_SECRET: SECRET,
    });
    try {
      cloudApi.addInstallation({
        id: 95,
        account: { login: 'delta', type: 'Organization' },
        repository_selection: 'all',
        repositories: [],
      });
      const installation = cloudApi.installationJson(cloudApi.installations.get(95)!);
      const created = await webhook('installation', { action: 'created', installation }, cloud);
      expect(created.json()).toMatchObject({ event: 'installation', status: 'processed' });
      // A tenant's registry, on its host with its own owner token (ADMIN_TOKEN is refused there).
      const tenant = await cloudTenant(cloud, 'delta');
      const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
        cloud.app.inject({ method, url, headers: tenant.admin, payload });
      const list = await call('GET', '/api/v1/hostapp/installations');
      expect(list.json()).toMatchObject({ data: [], pagination: { total: 0 } });
      expect((await call('GET', '/api/v1/hostapp/installations/by-host-id/95')).statusCode).toBe(
        404,
      );
      const row = await cloud.db
        .selectFrom('hostapp_installations')
        .selectAll()
        .where('host_installation_id', '=', '95')
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ tenant_id: null, claimed_at: null, account_login: 'delta' });

      // In Cloud a claim needs proof that the claimer manages the installation.
      const unproved = await call('POST', '/api/v1/hostapp/installations/claim', {
        installation_id: 95,
      });
      expect(unproved.statusCode).toBe(403);
      cloudApi.users.set('delta-owner', { id: 7, installations: [95] });
      const claimed = await call('POST', '/api/v1/hostapp/installations/claim', {
        installation_id: 95,
        code: cloudApi.authorizationCode('delta-owner'),
      });
      expect(claimed.statusCode, claimed.body).toBe(201);
      expect(claimed.json()).toMatchObject({ id: row.id, account_login: 'delta' });
      expect((await call('GET', '/api/v1/hostapp/installations')).json()).toMatchObject({
        data: [{ id: row.id }],
        pagination: { total: 1 },
      });
      const audit = (await call('GET', '/api/v1/audit?action=hostapp.claim')).json().data;
      expect(audit).toEqual([
        expect.objectContaining({ actor: expect.objectContaining({ kind: 'cma' }) }),
      ]);
    } finally {
      await cloud.close();
      await cloudApi.host.close();
    }
  });
});
