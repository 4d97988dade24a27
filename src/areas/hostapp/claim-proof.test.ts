import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudTenant, createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { FakeGitHubApi, generateAppKey } from '../../../test/fakes/github-api.js';

const APP_ID = '4343';
const COOKIE = 'packyard_oauth_hostapp';

/**
 * Cloud: a registry claims a GitHub App installation only with proof that someone managing it
 * on GitHub agreed (the App's user authorization code), never by its id alone.
 */
describe('claiming a GitHub App installation with proof (Cloud)', () => {
  let api: FakeGitHubApi;
  let t: TestApp;
  let alpha: Awaited<ReturnType<typeof cloudTenant>>;
  let bravo: Awaited<ReturnType<typeof cloudTenant>>;

  beforeAll(async () => {
    const key = generateAppKey();
    api = await FakeGitHubApi.start({ appId: APP_ID, publicKey: key.publicKey });
    t = await createTestApp({
      ...api.env,
      EDITION: 'cloud',
      GITHUB_APP_ID: APP_ID,
      GITHUB_APP_PRIVATE_KEY: key.privateKey,
      GITHUB_APP_SLUG: 'packyard-cloud',
    });
    api.addInstallation({
      id: 501,
      account: { login: 'alpha-org', type: 'Organization' },
      repository_selection: 'all',
      repositories: [],
    });
    api.maxPerPage = 2;
    // Alice manages alpha-org's installation among others (several pages of them).
    for (const id of [601, 602, 603]) {
      api.addInstallation({
        id,
        account: { login: `other-${id}`, type: 'Organization' },
        repository_selection: 'all',
        repositories: [],
      });
    }
    api.users.set('alice', { id: 1, installations: [601, 602, 603, 501] });
    api.users.set('mallory', { id: 2, installations: [] });
    alpha = await cloudTenant(t, 'alpha');
    bravo = await cloudTenant(t, 'bravo');
  });
  afterAll(async () => {
    await t?.close();
    await api?.host.close();
  });

  const claim = (tenant: typeof alpha, body: object) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/hostapp/installations/claim',
      headers: tenant.admin,
      payload: body,
    });

  it('refuses a claim by id alone, with a wrong user, or with a bad code', async () => {
    const bare = await claim(bravo, { installation_id: 501 });
    expect(bare.statusCode).toBe(403);
    expect(bare.json().message).toMatch(/proof that you manage it/);
    const stranger = await claim(bravo, {
      installation_id: 501,
      code: api.authorizationCode('mallory'),
    });
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json().message).toMatch(/mallory does not manage installation 501/);
    const bad = await claim(bravo, { installation_id: 501, code: 'not-a-code' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'code' }] });
    const rows = await t.db.selectFrom('hostapp_installations').selectAll().execute();
    expect(rows.filter((r) => r.tenant_id !== null)).toEqual([]);
  });

  it('claims through the install link: GitHub returns to the Setup URL with the code', async () => {
    const link = await t.app.inject({
      method: 'POST',
      url: '/api/v1/hostapp/installations/claim-link',
      headers: alpha.admin,
    });
    expect(link.statusCode, link.body).toBe(200);
    const url = new URL(link.json().url as string);
    expect(url.pathname).toBe('/apps/packyard-cloud/installations/new');
    expect(url.searchParams.get('state')).toBe(link.json().state);
    const cookie = [link.headers['set-cookie'] ?? []]
      .flat()
      .find((c) => c.startsWith(`${COOKIE}=`))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Path=\/api\/hostapp\/setup/);
    const binding = cookie.split(';')[0]!;

    // Alice installs the App on alpha-org and authorizes it; GitHub sends her browser back.
    const setup = (code: string, withCookie: boolean) =>
      t.app.inject({
        url:
          `/api/hostapp/setup?installation_id=501&setup_action=install` +
          `&code=${code}&state=${url.searchParams.get('state')}`,
        headers: { host: 'packyard.test', ...(withCookie ? { cookie: binding } : {}) },
      });
    const elsewhere = await setup(api.authorizationCode('alice'), false);
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().message).toMatch(/another browser session/);

    const again = await t.app.inject({
      method: 'POST',
      url: '/api/v1/hostapp/installations/claim-link',
      headers: alpha.admin,
    });
    const state = again.json().state as string;
    const cookie2 = [again.headers['set-cookie'] ?? []]
      .flat()
      .find((c) => c.startsWith(`${COOKIE}=`))!
      .split(';')[0]!;
    const done = await t.app.inject({
      url: `/api/hostapp/setup?installation_id=501&setup_action=install&code=${api.authorizationCode('alice')}&state=${state}`,
      headers: { host: 'packyard.test', cookie: cookie2 },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.body).toContain('alpha-org');

    const listed = await t.app.inject({
      url: '/api/v1/hostapp/installations',
      headers: alpha.admin,
    });
    expect(listed.json()).toMatchObject({
      data: [{ host_installation_id: 501, account_login: 'alpha-org' }],
    });
    const audit = await t.app.inject({
      url: '/api/v1/audit?action=hostapp.claim',
      headers: alpha.admin,
    });
    expect(audit.json().data[0].summary).toMatchObject({ proved_by: 'alice' });
    // The other registry still cannot take it, even with proof.
    const taken = await claim(bravo, {
      installation_id: 501,
      code: api.authorizationCode('alice'),
    });
    expect(taken.statusCode).toBe(409);
  });
});
