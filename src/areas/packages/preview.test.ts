import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { adminApi, addSyncedPackage } from '../../../test/factories.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';

let t: TestApp;
let repo: GitFixture;
let viewer: string;

const preview = (
  constraint: string,
  headers: Record<string, string> = t.admin,
  name = 'acme/lib',
) =>
  t.app.inject({
    url: `/api/v1/packages/${name}/versions?constraint=${encodeURIComponent(constraint)}`,
    headers,
  });

beforeAll(async () => {
  t = await createTestApp();
  repo = new GitFixture('acme/lib');
  repo.release('1.0.0').release('1.1.0').release('2.0.0').release('2.1.0-beta1');
  await addSyncedPackage(t, 'acme/lib', repo.url);
  const api = adminApi(t);
  await api('POST', '/api/v1/packages/acme/lib/yank/1.0.0');
  viewer = (await api('POST', '/api/v1/team/tokens', { name: 'v', level: 'viewer' })).plain_token;
});

afterAll(async () => {
  await t.close();
  repo.remove();
});

describe('GET /packages/{vendor}/{name}/versions?constraint=', () => {
  it('lists the versions a grant with the constraint shows, yanked ones apart', async () => {
    const res = await preview('^1.0');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.name).toBe('acme/lib');
    expect(body.constraint).toBe('^1.0');
    expect(body.versions.map((v: { version: string }) => v.version)).toEqual(['1.1.0']);
    expect(body.yanked).toEqual(['1.0.0']);
    expect(body.total_versions).toBe(5);
  });

  it('matches as the Composer metadata does: the constraint alone, branches by name', async () => {
    const names = async (c: string) =>
      (await preview(c)).json().versions.map((v: { version: string }) => v.version);
    expect(await names('>=2.0')).toEqual(['2.1.0-beta1', '2.0.0']);
    expect(await names('~1.1.0 || ^2.1@beta')).toEqual(['2.1.0-beta1', '1.1.0']);
    expect(await names('dev-main')).toEqual(['dev-main']);
    expect(await names('<1')).toEqual([]);
  });

  it('answers 400 on the constraint field for a constraint Composer cannot parse', async () => {
    const res = await preview('^^1');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
    expect(res.json().details[0].field).toBe('constraint');
    const missing = await t.app.inject({
      url: '/api/v1/packages/acme/lib/versions',
      headers: t.admin,
    });
    expect(missing.statusCode).toBe(400);
  });

  it('is a read: viewers may call it; unknown packages are 404; no token is 401', async () => {
    expect((await preview('^1.0', { authorization: `Bearer ${viewer}` })).statusCode).toBe(200);
    expect((await preview('^1.0', t.admin, 'acme/nope')).statusCode).toBe(404);
    expect((await preview('^1.0', {})).statusCode).toBe(401);
  });
});
