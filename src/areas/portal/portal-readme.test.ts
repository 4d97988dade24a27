import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import {
  adminApi,
  addSyncedPackage,
  createCustomer,
  waitForSync,
} from '../../../test/factories.js';

// The portal's package page shows the README of the newest version the token may install
// (docs/portal.md), read by the sync from each version's own tree.
let t: TestApp;
let repo: GitFixture;
let packageId: string;
const api = (method: string, url: string, payload?: unknown) => adminApi(t)(method, url, payload);

async function tokenFor(grants: Record<string, string>): Promise<{ authorization: string }> {
  const c = await createCustomer(t, `C${Math.random().toString(36).slice(2, 8)}`);
  for (const [pkg, constraint] of Object.entries(grants)) {
    await api('POST', `/api/v1/customers/${c.id}/packages`, { package: pkg, constraint });
  }
  const created = await api('POST', `/api/v1/customers/${c.id}/tokens`, { name: 'ci' });
  return { authorization: basicAuth(created.plain_token) };
}

async function readmeSeenBy(headers: { authorization: string }): Promise<string | null> {
  const res = await t.app.inject({ url: '/api/v1/me/packages/acme/docs', headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ readme: { content: string } | null }>().readme?.content ?? null;
}

const storedReadmes = async () =>
  (
    await t.db
      .selectFrom('package_readmes')
      .select('content')
      .where('package_id', '=', packageId)
      .orderBy('content')
      .execute()
  ).map((r) => r.content);

beforeAll(async () => {
  t = await createTestApp();
  repo = new GitFixture('acme/docs');
  repo.write('README.md', '# Docs one').release('1.0.0').release('1.1.0');
  repo.write('README.md', '# Docs two').release('2.0.0');
  repo.write('README.md', '# Docs beta').release('2.1.0-beta1');
  repo.write('README.md', '# Docs main').commit('Work after the releases');
  const pkg = (await addSyncedPackage(t, 'acme/docs', repo.url)) as { id: string };
  packageId = pkg.id;
});
afterAll(async () => {
  await t?.close();
  repo?.remove();
});

describe("the portal's readme of the newest version", () => {
  it('is the readme of the newest version each token may install', async () => {
    expect(await readmeSeenBy(await tokenFor({ 'acme/docs': '^1.0' }))).toBe('# Docs one');
    // The newest stable version wins over a newer beta.
    expect(await readmeSeenBy(await tokenFor({ 'acme/docs': '*' }))).toBe('# Docs two');
    // Without a stable version, the newest of those visible.
    const beta = await tokenFor({ 'acme/docs': '2.1.0-beta1' });
    expect(await readmeSeenBy(beta)).toBe('# Docs beta');
    // Only the default branch: its readme.
    expect(await readmeSeenBy(await tokenFor({ 'acme/docs': 'dev-main' }))).toBe('# Docs main');
  });

  it('keeps each distinct readme once, and drops one no version has any more', async () => {
    // 1.0.0 and 1.1.0 share one blob.
    expect(await storedReadmes()).toEqual([
      '# Docs beta',
      '# Docs main',
      '# Docs one',
      '# Docs two',
    ]);
    repo.git('tag', '-d', '1.0.0');
    repo.git('tag', '-d', '1.1.0');
    repo.write('README.md', '# Docs three').release('3.0.0');
    repo.write('README.md', '# Docs next').commit('Work after 3.0.0');
    await api('POST', '/api/v1/packages/acme/docs/sync');
    await waitForSync(t, 'acme/docs');
    expect(await storedReadmes()).toEqual([
      '# Docs beta',
      '# Docs next',
      '# Docs three',
      '# Docs two',
    ]);
    const all = await tokenFor({ 'acme/docs': '*' });
    expect(await readmeSeenBy(all)).toBe('# Docs three');
  });

  it("shows the package's default-branch readme for a version synced before readmes were kept", async () => {
    const three = await tokenFor({ 'acme/docs': '^3.0' });
    await t.db
      .updateTable('versions')
      .set({ readme_blob: null })
      .where('package_id', '=', packageId)
      .where('version_normalized', '=', '3.0.0.0')
      .execute();
    expect(await readmeSeenBy(three)).toBe('# Docs next');
  });

  it('forgets the readmes with the package', async () => {
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/packages/acme/docs',
      headers: t.admin,
    });
    expect(res.statusCode, res.body).toBe(204);
    expect(await storedReadmes()).toEqual([]);
  });
});
