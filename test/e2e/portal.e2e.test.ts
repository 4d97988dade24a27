import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ensureWebBuild } from '../../scripts/web-build.js';
import { GitFixture } from '../fixtures/git-repo.js';
import { adminApi, addSyncedPackage, createCustomer } from '../factories.js';
import { basicAuth } from '../helpers.js';
import { startServer } from './server.js';
import type { RunningServer } from './server.js';
import {
  DESKTOP,
  PHONE,
  PageSet,
  checkPages,
  loaded,
  nav as navBy,
  screenshot,
} from './browser.js';
import type { TrackedPage } from './browser.js';
import { expectFits, expectReachable } from './admin-ui-phone.js';
import { ComposerProject } from './composer-client.js';

// The customer portal (docs/portal.md) in Chromium: one server, real synced repositories, and a
// page (its own session storage) per customer.
let s: RunningServer;
const repos: GitFixture[] = [];
const pages = new PageSet();
/** The path of every request any portal page made. */
const requested = new Set<string>();
/** The composer.json the Setup page gave, for the install with a token made in the portal. */
let setupComposerJson: { repositories: unknown[]; config?: Record<string, unknown> } | null = null;
const tokens: Record<'acme' | 'initech' | 'dev' | 'suspended', string> = {
  acme: '',
  initech: '',
  dev: '',
  suspended: '',
};

const README = [
  '# Acme Lib',
  '',
  'The **readme** of acme/lib.',
  '',
  '<script>window.__pwned = "script"</script>',
  '<img src="x" onerror="window.__pwned = \'img\'">',
  '[click me](javascript:window.__pwned=1)',
  '<iframe src="https://example.com"></iframe>',
].join('\n');

async function customerWith(name: string, grants: Record<string, string>, scope = 'admin') {
  const api = adminApi(s);
  const c = await createCustomer(s, name);
  for (const [pkg, constraint] of Object.entries(grants)) {
    await api('POST', `/api/v1/customers/${c.id}/packages`, { package: pkg, constraint });
  }
  const created = await api('POST', `/api/v1/customers/${c.id}/tokens`, { name: 'laptop', scope });
  return { id: c.id, token: created.plain_token as string };
}

async function open(viewport = DESKTOP, expected: RegExp[] = []): Promise<TrackedPage> {
  const p = await pages.open(viewport, expected);
  p.page.on('request', (req) => requested.add(new URL(req.url()).pathname));
  return p;
}

async function signIn(page: Page, token: string) {
  await page.goto(`${s.url}/portal/`);
  await page.getByLabel('Token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function nav(page: Page, link: string) {
  await navBy(page, link, 'Portal');
  await loaded(page);
}

beforeAll(async () => {
  ensureWebBuild();
  const lib = new GitFixture('acme/lib');
  lib.write('README.md', README);
  lib.release('1.0.0').release('1.1.0');
  // 2.0.0 (and so the default branch) has another README: a ^1.0 customer sees 1.1.0's.
  lib.write('README.md', README.replace('# Acme Lib', '# Acme Lib 2')).release('2.0.0');
  const secret = new GitFixture('initech/secret');
  secret.release('3.0.0');
  repos.push(lib, secret);
  s = await startServer();
  await addSyncedPackage(s, 'acme/lib', lib.url);
  await addSyncedPackage(s, 'initech/secret', secret.url);
  const acme = await customerWith('Acme Corp', { 'acme/lib': '^1.0' });
  tokens.acme = acme.token;
  tokens.initech = (await customerWith('Initech', { 'initech/secret': '*' })).token;
  const dev = await adminApi(s)('POST', `/api/v1/customers/${acme.id}/tokens`, {
    name: 'dev box',
    scope: 'developer',
  });
  tokens.dev = dev.plain_token;
  const suspended = await customerWith('Gone Ltd', { 'acme/lib': '*' });
  await adminApi(s)('POST', `/api/v1/customers/${suspended.id}/suspend`, { reason: 'unpaid' });
  tokens.suspended = suspended.token;
  await adminApi(s)('PATCH', '/api/v1/settings', {
    portal: { title: 'Acme Packages', accent_color: '#8a2be2' },
  });
  await pages.launch();
});

checkPages(pages, async () => {
  await s?.close();
  repos.forEach((r) => r.remove());
});

describe('the customer portal in a real browser', () => {
  let acme: TrackedPage;

  it('signs in with a customer token and lists only what it may install, in the vendor colours', async () => {
    acme = await open(DESKTOP, [/^401 GET \/api\/v1\/me$/]);
    const { page } = acme;
    await signIn(page, 'pkt_not-a-token');
    await page.getByRole('alert').filter({ hasText: 'not valid' }).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Acme Packages' }).waitFor();

    await page.getByLabel('Token').fill(tokens.acme);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your packages' }).waitFor();
    await loaded(page);
    expect(page.url()).toBe(`${s.url}/portal/`);
    expect(page.url()).not.toContain(tokens.acme);
    expect(await page.evaluate<string[]>('Object.values(sessionStorage)')).toContain(tokens.acme);
    expect(await page.evaluate<string[]>('Object.values(localStorage)')).toEqual([]);

    const table = page.getByRole('region', { name: 'Packages' });
    await table.getByRole('link', { name: 'acme/lib' }).waitFor();
    for (const v of ['1.1.0', '1.0.0']) await table.getByText(v, { exact: true }).waitFor();
    expect(await table.getByText('2.0.0', { exact: true }).count()).toBe(0);
    expect(await page.getByText('initech/secret').count()).toBe(0);
    // The vendor's title and accent colour.
    await page.getByText('Acme Packages').first().waitFor();
    expect(await page.title()).toBe('Acme Packages');
    const accent = await page.evaluate<string>(
      `getComputedStyle(document.documentElement).getPropertyValue('--accent').trim()`,
    );
    expect(accent).toBe('#8a2be2');
    await screenshot(page, 'portal-packages');
  });

  it('shows a package with its versions and its readme, rendered safely', async () => {
    const { page } = acme;
    await page.getByRole('link', { name: 'acme/lib' }).click();
    await page.getByRole('heading', { level: 1, name: 'acme/lib' }).waitFor();
    const versions = page.getByRole('region', { name: 'Versions' });
    for (const v of ['1.1.0', '1.0.0']) await versions.getByText(v, { exact: true }).waitFor();
    expect(await versions.getByText('2.0.0', { exact: true }).count()).toBe(0);
    // The readme of the newest version this token may install (1.1.0), not the default branch's.
    await page.getByRole('heading', { name: 'Acme Lib', exact: true }).waitFor();
    expect(await page.getByRole('heading', { name: 'Acme Lib 2', exact: true }).count()).toBe(0);
    expect(await page.evaluate<unknown>('window.__pwned')).toBeUndefined();
    const readme = page.locator('article.readme');
    expect(await readme.locator('script, iframe, [onerror]').count()).toBe(0);
    expect(await readme.locator('a[href^="javascript:"]').count()).toBe(0);
    await screenshot(page, 'portal-package');
  });

  it('gives the Composer setup for this registry', async () => {
    const { page } = acme;
    await nav(page, 'Setup');
    const host = new URL(s.url).host;
    const composerJson = await page.getByLabel('composer.json', { exact: true }).textContent();
    setupComposerJson = JSON.parse(composerJson ?? '');
    expect(setupComposerJson).toMatchObject({
      repositories: [{ type: 'composer', url: s.url }],
    });
    const authJson = await page.getByLabel('auth.json', { exact: true }).textContent();
    expect(JSON.parse(authJson ?? '')).toEqual({
      'http-basic': { [host]: { username: 'token', password: '<your token>' } },
    });
  });

  it('lets a customer-admin token create a token, shown once with auth.json, and revoke it', async () => {
    const { page } = acme;
    await nav(page, 'Tokens');
    await page.getByLabel('Name', { exact: true }).fill('ci');
    await page.getByLabel('Scope').selectOption('developer');
    await page.getByRole('button', { name: 'Create token' }).click();
    const value = page.getByLabel('Token value', { exact: true });
    await value.waitFor();
    const plain = ((await value.textContent()) ?? '').trim();
    expect(plain).toMatch(/^pkt_/);
    const authJson = JSON.parse(
      (await page.getByLabel('auth.json', { exact: true }).textContent()) ?? '',
    );
    expect(authJson['http-basic'][new URL(s.url).host].password).toBe(plain);
    // The value works on the Composer surface.
    const root = await fetch(`${s.url}/packages.json`, {
      headers: { authorization: basicAuth(plain) },
    });
    expect(((await root.json()) as Record<string, unknown>)['available-packages']).toEqual([
      'acme/lib',
    ]);
    // Composer installs with the Setup page's composer.json and the auth.json shown here.
    const project = new ComposerProject(s.url, plain);
    try {
      project.writeJson('composer.json', {
        name: 'customer/app',
        ...setupComposerJson,
        repositories: [...(setupComposerJson?.repositories ?? []), { 'packagist.org': false }],
        require: {},
      });
      project.writeJson('auth.json', authJson);
      const install = await project.run(['require', 'acme/lib']);
      expect(install.code, install.output).toBe(0);
      expect(project.lockedVersion('acme/lib')).toBe('1.1.0');
    } finally {
      project.remove();
    }
    await page.getByRole('button', { name: 'I have copied it' }).click();
    expect(await page.getByText(plain).count()).toBe(0);

    const table = page.getByRole('region', { name: 'Tokens' });
    const row = table.getByRole('row').filter({ hasText: 'ci' }).filter({ hasText: 'developer' });
    await row.waitFor();
    await row.getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => row.count()).toBe(0);
    const gone = await fetch(`${s.url}/packages.json`, {
      headers: { authorization: basicAuth(plain) },
    });
    expect(gone.status).toBe(401);
    await screenshot(page, 'portal-tokens');
  });

  it('shows a developer token the tokens without Create token or Revoke', async () => {
    const dev = await open();
    await signIn(dev.page, tokens.dev);
    await dev.page.getByRole('heading', { level: 1, name: 'Your packages' }).waitFor();
    await nav(dev.page, 'Tokens');
    await dev.page.getByRole('region', { name: 'Tokens' }).getByText('dev box').first().waitFor();
    expect(await dev.page.getByRole('button', { name: 'Create token' }).count()).toBe(0);
    expect(await dev.page.getByRole('button', { name: 'Revoke' }).count()).toBe(0);
  });

  it('never shows a customer another customer’s packages', async () => {
    const initech = await open(DESKTOP, [/^403 GET \/api\/v1\/me\/packages\/acme\/lib$/]);
    const { page } = initech;
    await signIn(page, tokens.initech);
    await page.getByRole('heading', { level: 1, name: 'Your packages' }).waitFor();
    await loaded(page);
    await page.getByRole('link', { name: 'initech/secret' }).waitFor();
    expect(await page.getByText('acme/lib').count()).toBe(0);
    // Asking by address is refused, in words.
    await page.goto(`${s.url}/portal/packages/acme/lib`);
    await page.getByRole('alert').filter({ hasText: 'Not allowed' }).waitFor();
    expect(await page.getByText('1.1.0').count()).toBe(0);
  });

  it('refuses a suspended customer, saying why', async () => {
    const gone = await open(DESKTOP, [/^403 GET \/api\/v1\/me$/]);
    await signIn(gone.page, tokens.suspended);
    await gone.page.getByRole('alert').filter({ hasText: 'suspended' }).waitFor();
    expect(await gone.page.getByRole('heading', { name: 'Your packages' }).count()).toBe(0);
    expect(await gone.page.evaluate<string[]>('Object.values(sessionStorage)')).toEqual([]);
  });

  it("is served at /portal with the admin UI's security headers, for any path under it", async () => {
    const bare = await fetch(`${s.url}/portal`, { redirect: 'manual' });
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/portal/');
    const deep = await fetch(`${s.url}/portal/packages/acme/lib`);
    expect(deep.status).toBe(200);
    expect(deep.headers.get('content-type')).toMatch(/^text\/html/);
    expect(deep.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(deep.headers.get('x-frame-options')).toBe('DENY');
    expect(await deep.text()).toContain('/admin/assets/portal-');
  });

  it('works on a 390-pixel phone: every page fits, and signs out', async () => {
    const phone = await open(PHONE);
    const { page } = phone;
    await page.goto(`${s.url}/portal/`);
    await expectFits(page, 'sign in');
    await page.getByLabel('Token').fill(tokens.acme);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your packages' }).waitFor();
    await loaded(page);
    await expectFits(page, 'Your packages');
    await screenshot(page, 'portal-phone-packages');
    await page.getByRole('link', { name: 'acme/lib' }).click();
    // The readme of the newest version this token may install (1.1.0), not the default branch's.
    await page.getByRole('heading', { name: 'Acme Lib', exact: true }).waitFor();
    expect(await page.getByRole('heading', { name: 'Acme Lib 2', exact: true }).count()).toBe(0);
    await expectFits(page, 'package');
    for (const view of ['Setup', 'Tokens']) {
      await nav(page, view);
      await expectFits(page, view);
      await screenshot(page, `portal-phone-${view.toLowerCase()}`);
    }
    await expectReachable(page.getByRole('button', { name: 'Create token' }));
    await expectReachable(page.getByRole('button', { name: 'Revoke' }).first());
    const signOut = page.getByRole('button', { name: 'Sign out' });
    await expectReachable(signOut);
    await signOut.click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate<string[]>('Object.values(sessionStorage)')).toEqual([]);
  });

  it('talked only to the portal API, never to an admin route', () => {
    const api = [...requested].filter((p) => p.startsWith('/api/'));
    expect(api.length).toBeGreaterThan(3);
    expect(api.filter((p) => !/^\/api\/v1\/(me(\/.*)?|portal)$/.test(p))).toEqual([]);
    const other = [...requested].filter(
      (p) => !p.startsWith('/api/') && !p.startsWith('/portal') && !p.startsWith('/admin/assets/'),
    );
    expect(other).toEqual([]);
  });
});
