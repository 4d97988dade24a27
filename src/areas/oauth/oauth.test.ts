import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/helpers.js';
import { buildApp } from '../../app.js';
import type { TestApp } from '../../../test/helpers.js';
import { waitForSync } from '../../../test/factories.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import { FakeOAuthHost } from '../../../test/fakes/oauth-host.js';
import type { FakeOAuthProvider } from '../../../test/fakes/oauth-host.js';

const ENCRYPTION_KEY = 'test-encryption-key-0123456789abcdef';
const BASE_URL = 'http://packyard.test';
const LABEL = { github: 'GitHub', gitlab: 'GitLab' } as const;
const ALIAS = { github: 'provider-a', gitlab: 'provider-b' } as const;
const SCOPES = { github: 'repo read:user', gitlab: 'read_repository read_user' } as const;

type Method = 'GET' | 'POST';

function api(t: TestApp, method: Method, url: string, headers: object = t.admin) {
  return t.app.inject({ method, url: `/api/v1${url}`, headers: { ...headers } });
}

/** Plays the browser from the authorize page back to Packyard's callback. */
async function authorizeAndReturn(t: TestApp, fake: FakeOAuthHost, provider: string) {
  const init = await api(t, 'POST', `/oauth/${provider}/initiate`);
  expect(init.statusCode, init.body).toBe(200);
  const back = await fake.authorize(init.json().authorization_url);
  const callback = await t.app.inject({ url: back.pathname + back.search });
  return { init: init.json(), back, callback };
}

async function connect(t: TestApp, fake: FakeOAuthHost, provider: string) {
  const { callback } = await authorizeAndReturn(t, fake, provider);
  expect(callback.statusCode, callback.body).toBe(200);
  return callback;
}

async function syncNow(t: TestApp, name: string) {
  const res = await api(t, 'POST', `/packages/${name}/sync`);
  expect(res.statusCode, res.body).toBe(202);
  return waitForSync(t, name);
}

async function storedRow(t: TestApp, provider: string) {
  return t.db
    .selectFrom('oauth_connections')
    .selectAll()
    .where('provider', '=', provider)
    .executeTakeFirst();
}

async function auditActions(t: TestApp) {
  const res = await api(t, 'GET', '/audit?action=oauth.');
  return res.json().data as { action: string; actor: { kind: string }; summary: object }[];
}

describe.each(['github', 'gitlab'] as FakeOAuthProvider[])('OAuth connection to %s', (provider) => {
  let fake: FakeOAuthHost;
  let t: TestApp;
  let repo: GitFixture;
  let cloneUrl: string;
  const label = LABEL[provider];

  beforeAll(async () => {
    fake = await FakeOAuthHost.start({ provider });
    fake.callbackUrl = `${BASE_URL}/api/oauth/${provider}/callback`;
    t = await createTestApp({ ...fake.env(), ENCRYPTION_KEY, HOST_API_TIMEOUT_SECONDS: '1' });
    repo = new GitFixture('acme/private-lib');
    repo.release('v1.0.0');
    cloneUrl = fake.servePrivate('acme/private-lib', repo.dir);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
    repo?.remove();
  });

  it('is configured but not connected at first; the private repository is refused', async () => {
    const status = await api(t, 'GET', `/oauth/${provider}/status`);
    expect(status.json()).toEqual({
      provider,
      configured: true,
      connected: false,
      account_login: null,
      scopes: [],
      expires_at: null,
      connected_at: null,
    });
    const add = await t.app.inject({
      method: 'POST',
      url: '/api/v1/packages',
      headers: t.admin,
      payload: { name: 'acme/private-lib', repository_url: cloneUrl, type: provider },
    });
    expect(add.statusCode, add.body).toBe(201);
    const pkg = await waitForSync(t, 'acme/private-lib');
    expect(pkg.sync_status).toBe('failed');
    // git asked for a username: the repository wants credentials and Packyard had none to give.
    expect(pkg.sync_error).toMatch(/Authentication failed|could not read Username/);
  });

  it('connects: initiate (alias path), authorize on the host, callback, status, list', async () => {
    const init = await api(t, 'POST', `/oauth/${ALIAS[provider]}/initiate`);
    expect(init.statusCode, init.body).toBe(200);
    const body = init.json();
    expect(body.provider).toBe(provider);
    expect(Date.parse(body.expires_at) - Date.now()).toBeGreaterThan(9 * 60 * 1000);
    expect(Date.parse(body.expires_at) - Date.now()).toBeLessThanOrEqual(10 * 60 * 1000);
    const url = new URL(body.authorization_url);
    expect(url.origin).toBe(fake.url);
    expect(url.pathname).toBe(
      provider === 'github' ? '/login/oauth/authorize' : '/oauth/authorize',
    );
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: fake.clientId,
      redirect_uri: `${BASE_URL}/api/oauth/${provider}/callback`,
      scope: SCOPES[provider],
      state: body.state,
      code_challenge_method: 'S256',
    });
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(body.state.length).toBeGreaterThanOrEqual(32);

    const back = await fake.authorize(body.authorization_url);
    expect(back.origin).toBe(BASE_URL);
    expect(back.searchParams.get('state')).toBe(body.state);
    // The browser carries no admin token to the callback.
    const page = await t.app.inject({ url: back.pathname + back.search });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain(`Connected to ${label} as octo-admin`);

    const tokenCall = fake.tokenRequests.at(-1)!;
    expect(tokenCall.grantType).toBe('authorization_code');
    expect(tokenCall.params.code_verifier).toMatch(/^[\w-]{43}$/);

    const status = (await api(t, 'GET', `/oauth/${ALIAS[provider]}/status`)).json();
    expect(status).toMatchObject({
      provider,
      configured: true,
      connected: true,
      account_login: 'octo-admin',
      scopes: provider === 'github' ? ['repo', 'read:user'] : ['read_repository', 'read_user'],
    });
    expect(status.connected_at).toMatch(/Z$/);
    if (provider === 'github') expect(status.expires_at).toBeNull();
    else expect(Date.parse(status.expires_at) - Date.now()).toBeGreaterThan(7000 * 1000);

    const list = await api(t, 'GET', '/oauth/connections');
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toEqual([
      {
        id: expect.any(String),
        provider,
        account_login: 'octo-admin',
        scopes: status.scopes,
        expires_at: status.expires_at,
        created_at: status.connected_at,
        updated_at: status.connected_at,
      },
    ]);
    expect(list.json().pagination).toEqual({ page: 1, per_page: 25, total: 1, total_pages: 1 });
    const beyond = (await api(t, 'GET', '/oauth/connections?page=2&per_page=1')).json();
    expect(beyond).toEqual({
      data: [],
      pagination: { page: 2, per_page: 1, total: 1, total_pages: 1 },
    });

    const audit = await auditActions(t);
    expect(audit[0]).toMatchObject({
      action: 'oauth.connect',
      actor: { kind: 'system' },
      summary: { provider, account_login: 'octo-admin', replaced: false },
    });

    // A state works once: replaying the callback changes nothing.
    const replay = await t.app.inject({ url: back.pathname + back.search });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(replay.json().message).toMatch(/state: is unknown or was already used/);
    expect((await api(t, 'GET', '/oauth/connections')).json().data).toHaveLength(1);
  });

  it('keeps tokens encrypted at rest and out of every answer', async () => {
    const row = (await storedRow(t, provider))!;
    const tokens = fake.allTokens();
    expect(tokens.length).toBeGreaterThan(0);
    expect(row.access_token_enc).toMatch(/^v1:/);
    if (provider === 'gitlab') expect(row.refresh_token_enc).toMatch(/^v1:/);
    const answers = [
      (await api(t, 'GET', '/oauth/connections')).body,
      (await api(t, 'GET', `/oauth/${provider}/status`)).body,
      (await api(t, 'GET', '/audit')).body,
      JSON.stringify(row),
    ].join('\n');
    for (const token of tokens) expect(answers).not.toContain(token);
  });

  it('syncs the private repository with the connection token', async () => {
    const pkg = await syncNow(t, 'acme/private-lib');
    expect(pkg.sync_status, pkg.sync_error).toBe('ok');
    expect(pkg.versions.map((v: { version: string }) => v.version)).toContain('v1.0.0');
    const git = fake.gitRequests().filter((r) => r.basic);
    expect(git.length).toBeGreaterThan(0);
    expect(git.at(-1)!.basic).toEqual({
      username: provider === 'github' ? 'x-access-token' : 'oauth2',
      password: fake.validAccessTokens()[0],
    });
  });

  it('shows the connection in GraphQL', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: t.admin,
      payload: { query: '{ oauthConnections { id provider accountLogin scopes createdAt } }' },
    });
    const list = (await api(t, 'GET', '/oauth/connections')).json().data;
    expect(res.json()).toEqual({
      data: {
        oauthConnections: [
          {
            id: list[0].id,
            provider,
            accountLogin: 'octo-admin',
            scopes: list[0].scopes,
            createdAt: list[0].created_at,
          },
        ],
      },
    });
  });

  it('refreshes a token about to expire before the next sync, and stores the new pair', async () => {
    // The host now issues short-lived tokens (GitHub: expiring user tokens on).
    fake.expiringTokens = true;
    fake.accessTokenTtlSeconds = 30;
    await connect(t, fake, provider);
    const before = (await storedRow(t, provider))!;
    expect(Date.parse(before.expires_at!) - Date.now()).toBeLessThan(60_000);
    expect((await auditActions(t))[0]!.summary).toMatchObject({ replaced: true });

    fake.accessTokenTtlSeconds = 7200;
    fake.expireAccessTokens();
    const refreshesBefore = fake.tokenRequests.filter((r) => r.grantType === 'refresh_token');
    const pkg = await syncNow(t, 'acme/private-lib');
    expect(pkg.sync_status, pkg.sync_error).toBe('ok');

    const refreshes = fake.tokenRequests.filter((r) => r.grantType === 'refresh_token');
    expect(refreshes).toHaveLength(refreshesBefore.length + 1);
    expect(refreshes.at(-1)!.clientAuth).not.toBe('none');
    const after = (await storedRow(t, provider))!;
    expect(after.id).toBe(before.id);
    expect(after.access_token_enc).not.toBe(before.access_token_enc);
    expect(after.refresh_token_enc).not.toBe(before.refresh_token_enc);
    expect(Date.parse(after.expires_at!) - Date.now()).toBeGreaterThan(7000 * 1000);
    const status = (await api(t, 'GET', `/oauth/${provider}/status`)).json();
    expect(status.expires_at).toBe(after.expires_at);
    // The new token was used and is the only one the host accepts.
    const valid = fake.validAccessTokens();
    expect(valid).toHaveLength(1);
    expect(fake.gitRequests().at(-1)!.basic!.password).toBe(valid[0]);

    // Still valid for two hours: the next sync does not refresh again.
    expect((await syncNow(t, 'acme/private-lib')).sync_status).toBe('ok');
    expect(fake.tokenRequests.filter((r) => r.grantType === 'refresh_token')).toHaveLength(
      refreshes.length,
    );
  });

  it('keeps lending a still-valid token when the refresh gets no answer in time', async () => {
    fake.accessTokenTtlSeconds = 30;
    await connect(t, fake, provider);
    const before = (await storedRow(t, provider))!;
    const requestsBefore = fake.tokenRequests.length;
    fake.stallTokens = true;
    try {
      const pkg = await syncNow(t, 'acme/private-lib');
      expect(pkg.sync_status, pkg.sync_error).toBe('ok');
    } finally {
      fake.stallTokens = false;
      fake.accessTokenTtlSeconds = 7200;
    }
    expect(fake.tokenRequests.slice(requestsBefore).map((r) => r.grantType)).toEqual([
      'refresh_token',
    ]);
    expect((await storedRow(t, provider))!.access_token_enc).toBe(before.access_token_enc);
  });

  it('fails the sync with an authentication error when the host refuses the refresh', async () => {
    fake.accessTokenTtlSeconds = 30;
    await connect(t, fake, provider);
    fake.expireAccessTokens();
    fake.refuseRefresh = true;
    try {
      const pkg = await syncNow(t, 'acme/private-lib');
      expect(pkg.sync_status).toBe('failed');
      expect(pkg.sync_error).toMatch(/Authentication failed/);
      // The stored versions stay installable; the connection stays, waiting to be redone.
      expect(pkg.versions.map((v: { version: string }) => v.version)).toContain('v1.0.0');
      expect((await api(t, 'GET', `/oauth/${provider}/status`)).json().connected).toBe(true);
    } finally {
      fake.refuseRefresh = false;
      fake.accessTokenTtlSeconds = 7200;
    }
    await connect(t, fake, provider);
    expect((await syncNow(t, 'acme/private-lib')).sync_status).toBe('ok');
  });

  it('disconnects: tokens deleted, audited, and the next sync fails to authenticate', async () => {
    const res = await api(t, 'POST', `/oauth/${ALIAS[provider]}/disconnect`);
    expect(res.statusCode, res.body).toBe(204);
    expect(await storedRow(t, provider)).toBeUndefined();
    expect((await api(t, 'GET', '/oauth/connections')).json().data).toEqual([]);
    const status = (await api(t, 'GET', `/oauth/${provider}/status`)).json();
    expect(status).toMatchObject({ connected: false, configured: true, account_login: null });
    expect((await auditActions(t))[0]).toMatchObject({
      action: 'oauth.disconnect',
      actor: { kind: 'root' },
      summary: { provider, account_login: 'octo-admin' },
    });
    const again = await api(t, 'POST', `/oauth/${provider}/disconnect`);
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('NOT_FOUND');

    const pkg = await syncNow(t, 'acme/private-lib');
    expect(pkg.sync_status).toBe('failed');
    expect(pkg.sync_error).toMatch(/Authentication failed/);
  });
});

describe('OAuth callback refusals', () => {
  let github: FakeOAuthHost;
  let gitlab: FakeOAuthHost;
  let t: TestApp;

  beforeAll(async () => {
    github = await FakeOAuthHost.start({
      provider: 'github',
      user: { login: 'a&b<i>', id: 7 },
    });
    gitlab = await FakeOAuthHost.start({ provider: 'gitlab' });
    t = await createTestApp({
      ...github.env(),
      ...gitlab.env(),
      ENCRYPTION_KEY,
      EDITION: 'pro',
      HOST_API_TIMEOUT_SECONDS: '1',
    });
  });
  afterAll(async () => {
    await t?.close();
    await github?.close();
    await gitlab?.close();
  });

  const connections = async () => (await api(t, 'GET', '/oauth/connections')).json().data;

  async function expectRefused(url: string, message: RegExp) {
    const res = await t.app.inject({ url });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation_error', code: 'VALIDATION_ERROR' });
    expect(res.json().message).toMatch(message);
    expect(await connections()).toEqual([]);
  }

  it('refuses unknown states, missing parameters and states of another provider', async () => {
    await expectRefused(
      '/api/oauth/github/callback?code=abc&state=made-up',
      /state: is unknown or was already used; start again with POST \/api\/v1\/oauth\/github\/initiate/,
    );
    await expectRefused('/api/oauth/github/callback?code=abc', /state: is required/);
    await expectRefused('/api/oauth/github/callback?state=abc', /code: is required/);

    const init = (await api(t, 'POST', '/oauth/github/initiate')).json();
    const location = await github.authorize(init.authorization_url);
    await expectRefused(
      `/api/oauth/gitlab/callback${location.search}`,
      /state: is unknown or was already used/,
    );
    const unknown = await t.app.inject({ url: `/api/oauth/bitbucket/callback${location.search}` });
    expect(unknown.statusCode).toBe(404);
  });

  it('refuses an expired state, and a denied authorization, storing nothing', async () => {
    const init = (await api(t, 'POST', '/oauth/gitlab/initiate')).json();
    const back = await gitlab.authorize(init.authorization_url);
    await t.db
      .updateTable('oauth_states')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('state', '=', init.state)
      .execute();
    await expectRefused(back.pathname + back.search, /state: has expired/);

    gitlab.denyNext = true;
    const denied = await authorizeAndReturn(t, gitlab, 'provider-b');
    expect(denied.back.searchParams.get('error')).toBe('access_denied');
    expect(denied.callback.statusCode).toBe(400);
    expect(denied.callback.json().message).toMatch(
      /GitLab did not authorize the connection: access_denied/,
    );
    // The state of a denied authorization is spent too.
    const retry = new URL(denied.back);
    retry.searchParams.delete('error');
    retry.searchParams.delete('error_description');
    retry.searchParams.set('code', 'anything');
    await expectRefused(retry.pathname + retry.search, /state: is unknown or was already used/);
  });

  it('answers 502 UPSTREAM_ERROR when the token endpoint does not answer in time', async () => {
    const init = (await api(t, 'POST', '/oauth/gitlab/initiate')).json();
    const back = await gitlab.authorize(init.authorization_url);
    gitlab.stallTokens = true;
    try {
      const res = await t.app.inject({ url: back.pathname + back.search });
      expect(res.statusCode, res.body).toBe(502);
      expect(res.json()).toMatchObject({ code: 'UPSTREAM_ERROR' });
      expect(res.json().message).toMatch(
        /GitLab could not exchange the code: the token endpoint gave no answer within 1 s/,
      );
    } finally {
      gitlab.stallTokens = false;
    }
    expect(await connections()).toEqual([]);
  });

  it('refuses a code the host does not accept, and a code verifier that does not match', async () => {
    const init = (await api(t, 'POST', '/oauth/github/initiate')).json();
    const back = await github.authorize(init.authorization_url);
    back.searchParams.set('code', 'not-the-code');
    await expectRefused(
      back.pathname + back.search,
      /GitHub refused the authorization code: bad_verification_code/,
    );

    // Someone who saw the code but not the verifier (another authorization's state) gets nothing.
    const victim = (await api(t, 'POST', '/oauth/gitlab/initiate')).json();
    const victimBack = await gitlab.authorize(victim.authorization_url);
    const attacker = (await api(t, 'POST', '/oauth/gitlab/initiate')).json();
    const stolen = `?code=${victimBack.searchParams.get('code')}&state=${attacker.state}`;
    await expectRefused(
      `/api/oauth/gitlab/callback${stolen}`,
      /GitLab refused the authorization code: invalid_grant/,
    );
  });

  it('answers JSON when asked, and escapes the account name in the page', async () => {
    const init = (await api(t, 'POST', '/oauth/github/initiate')).json();
    const location = await github.authorize(init.authorization_url);
    const res = await t.app.inject({
      url: location.pathname + location.search,
      headers: { accept: 'application/json' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      provider: 'github',
      connected: true,
      account_login: 'a&b<i>',
    });

    const html = await authorizeAndReturn(t, github, 'github');
    expect(html.callback.body).toContain('Connected to GitHub as a&amp;b&lt;i&gt;');
    expect(html.callback.body).not.toContain('<i>');
    expect((await connections()).map((c: { provider: string }) => c.provider)).toEqual(['github']);
  });

  it('writes no token into the request log', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logged = await buildApp({
      services: t.runtime.services,
      logger: { level: 'trace', stream },
    });
    try {
      const init = await logged.inject({
        method: 'POST',
        url: '/api/v1/oauth/gitlab/initiate',
        headers: t.admin,
      });
      const back = await gitlab.authorize(init.json().authorization_url);
      const res = await logged.inject({ url: back.pathname + back.search });
      expect(res.statusCode, res.body).toBe(200);
      await logged.inject({ url: '/api/v1/oauth/connections', headers: t.admin });
      await logged.inject({ url: '/api/v1/oauth/gitlab/status', headers: t.admin });
    } finally {
      await logged.close();
    }
    const log = lines.join('');
    expect(log).toContain('/api/oauth/gitlab/callback');
    for (const token of gitlab.allTokens()) expect(log).not.toContain(token);
  });

  it('is for admins: viewers may read the status but not initiate or disconnect', async () => {
    expect((await api(t, 'POST', '/oauth/github/initiate', {})).statusCode).toBe(401);
    const viewer = await t.app.inject({
      method: 'POST',
      url: '/api/v1/team/tokens',
      headers: t.admin,
      payload: { name: 'v', level: 'viewer' },
    });
    const asViewer = { authorization: `Bearer ${viewer.json().plain_token}` };
    const init = await api(t, 'POST', '/oauth/github/initiate', asViewer);
    expect(init.statusCode).toBe(403);
    expect(init.json().code).toBe('FORBIDDEN');
    expect((await api(t, 'POST', '/oauth/github/disconnect', asViewer)).statusCode).toBe(403);
    expect((await api(t, 'GET', '/oauth/github/status', asViewer)).statusCode).toBe(200);
    expect((await api(t, 'GET', '/oauth/connections', asViewer)).statusCode).toBe(200);
    expect((await api(t, 'POST', '/oauth/bitbucket/initiate')).statusCode).toBe(404);
    const extra = await t.app.inject({
      method: 'POST',
      url: '/api/v1/oauth/github/initiate',
      headers: t.admin,
      payload: { scope: 'admin:org' },
    });
    expect(extra.statusCode).toBe(400);
  });
});

describe('OAuth without its settings', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ GITHUB_CLIENT_ID: 'Iv1.only-the-id' });
  });
  afterAll(async () => t?.close());

  it('answers 403 FEATURE_NOT_AVAILABLE naming the missing settings', async () => {
    const github = await api(t, 'POST', '/oauth/github/initiate');
    expect(github.statusCode).toBe(403);
    expect(github.json()).toMatchObject({ code: 'FEATURE_NOT_AVAILABLE' });
    expect(github.json().message).toBe(
      'OAuth connections to GitHub are not configured: set GITHUB_CLIENT_SECRET, ENCRYPTION_KEY',
    );
    const gitlab = await api(t, 'POST', '/oauth/provider-b/initiate');
    expect(gitlab.json().message).toMatch(/GITLAB_CLIENT_ID, GITLAB_CLIENT_SECRET, ENCRYPTION_KEY/);
    const status = (await api(t, 'GET', '/oauth/gitlab/status')).json();
    expect(status).toMatchObject({ provider: 'gitlab', configured: false, connected: false });
    expect((await api(t, 'GET', '/oauth/connections')).json().data).toEqual([]);
    expect((await api(t, 'POST', '/oauth/github/disconnect')).statusCode).toBe(404);
  });
});

describe('OAuth with an unreachable host', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      GITLAB_URL: 'http://127.0.0.1:9',
      GITLAB_CLIENT_ID: 'app-id',
      GITLAB_CLIENT_SECRET: 'app-secret',
      ENCRYPTION_KEY,
    });
  });
  afterAll(async () => t?.close());

  it('answers 502 UPSTREAM_ERROR naming the problem, never a 500, and stores nothing', async () => {
    const init = (await api(t, 'POST', '/oauth/gitlab/initiate')).json();
    expect(init.authorization_url).toMatch(/^http:\/\/127\.0\.0\.1:9\/oauth\/authorize\?/);
    const res = await t.app.inject({
      url: `/api/oauth/gitlab/callback?code=some-code&state=${init.state}`,
    });
    expect(res.statusCode, res.body).toBe(502);
    expect(res.json().code).toBe('UPSTREAM_ERROR');
    expect(res.json().message).toMatch(
      /^GitLab could not exchange the code: the token endpoint could not be reached/,
    );
    expect((await api(t, 'GET', '/oauth/connections')).json().data).toEqual([]);
  });
});
