import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudTenant, createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { FakeOAuthHost } from '../../../test/fakes/oauth-host.js';

const ENCRYPTION_KEY = 'test-encryption-key-0123456789abcdef';
const COOKIE = 'packyard_oauth_github';

/** The binding cookie an initiate answer sets, and its attributes. */
function bindingOf(setCookie: string | string[] | undefined) {
  const line = [setCookie ?? []].flat().find((c) => c.startsWith(`${COOKIE}=`));
  if (!line) throw new Error(`no ${COOKIE} cookie in ${JSON.stringify(setCookie)}`);
  const [pair, ...attributes] = line.split(';').map((p) => p.trim());
  return {
    value: pair!.slice(COOKIE.length + 1),
    attributes: attributes.map((a) => a.toLowerCase()),
  };
}

/**
 * The authorization state is bound to the browser that started it (a cookie), so an admin who
 * sends the authorization link to someone else cannot get that person's token into a registry.
 */
describe.each([
  ['single registry', {}],
  ['Cloud', { EDITION: 'cloud' }],
] as const)('OAuth state bound to the browser session (%s)', (edition, env) => {
  let fake: FakeOAuthHost;
  let t: TestApp;
  let admin: Record<string, string>;

  beforeAll(async () => {
    fake = await FakeOAuthHost.start({ provider: 'github' });
    fake.callbackUrl = 'http://packyard.test/api/oauth/github/callback';
    t = await createTestApp({ ...fake.env(), ENCRYPTION_KEY, ...env });
    admin = edition === 'Cloud' ? (await cloudTenant(t, 'acme')).admin : t.admin;
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  /** Initiates as the admin and plays the host's consent page: the callback URL it sends back. */
  const startFlow = async () => {
    const init = await t.app.inject({
      method: 'POST',
      url: '/api/v1/oauth/github/initiate',
      headers: admin,
    });
    expect(init.statusCode, init.body).toBe(200);
    const cookie = bindingOf(init.headers['set-cookie']);
    const back = await fake.authorize(init.json().authorization_url);
    return { cookie, callbackUrl: back.pathname + back.search };
  };
  const callback = (url: string, cookie?: string) =>
    t.app.inject({
      url,
      headers: { host: 'packyard.test', ...(cookie ? { cookie: `${COOKIE}=${cookie}` } : {}) },
    });

  it('sets an HttpOnly, SameSite=Lax cookie scoped to the callback', async () => {
    const { cookie } = await startFlow();
    expect(cookie.value.length).toBeGreaterThan(20);
    expect(cookie.attributes).toEqual(
      expect.arrayContaining(['httponly', 'samesite=lax', 'path=/api/oauth/github/callback']),
    );
    if (edition === 'Cloud') expect(cookie.attributes).toContain('domain=packyard.test');
  });

  it('refuses the callback in another browser, and spends the state', async () => {
    const { cookie, callbackUrl } = await startFlow();
    const stranger = await callback(callbackUrl, 'someone-elses-binding-value-0123456789');
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'state' }],
    });
    expect(stranger.json().message).toMatch(/another browser session/);
    // Not even the right browser can use that state any more.
    const late = await callback(callbackUrl, cookie.value);
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toMatch(/unknown or was already used/);
    const connections = await t.db.selectFrom('oauth_connections').selectAll().execute();
    expect(connections).toEqual([]);
  });

  it(
    edition === 'Cloud'
      ? 'refuses a callback without the cookie in Cloud'
      : 'accepts a callback without the cookie outside Cloud (an API client)',
    async () => {
      const { callbackUrl } = await startFlow();
      const res = await callback(callbackUrl);
      expect(res.statusCode, res.body).toBe(edition === 'Cloud' ? 400 : 200);
      if (edition === 'Cloud') {
        expect(res.json().message).toMatch(/another browser session/);
      } else {
        await t.db.deleteFrom('oauth_connections').execute();
      }
    },
  );

  it('connects from the browser that started it, and clears the cookie', async () => {
    const { cookie, callbackUrl } = await startFlow();
    const res = await callback(callbackUrl, cookie.value);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('Connected to GitHub');
    const cleared = bindingOf(res.headers['set-cookie']);
    expect(cleared.value).toBe('');
    const connections = await t.db.selectFrom('oauth_connections').selectAll().execute();
    expect(connections).toHaveLength(1);
  });
});
