import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudTenant, createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';

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
});
