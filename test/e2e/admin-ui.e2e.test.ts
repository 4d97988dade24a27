import { beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuild } from '../../scripts/web-build.js';
import { GitFixture } from '../fixtures/git-repo.js';
import { ADMIN_TOKEN } from '../helpers.js';
import { ComposerProject } from './composer-client.js';
import { startServer } from './server.js';
import type { RunningServer } from './server.js';
import {
  DESKTOP,
  PHONE,
  PageSet,
  checkPages,
  loaded,
  nav,
  overflowsSideways,
  screenshot,
  signIn,
} from './browser.js';
import type { TrackedPage } from './browser.js';
import { expectFits, expectReachable, expectWhole, watchRequests } from './admin-ui-phone.js';

// One server and one browser for the file; one signed-in admin page shared by the admin steps,
// which run in order (add a package, then grant it, then install it with the token shown).
let s: RunningServer;
let admin: TrackedPage;
let repo: GitFixture;
const cleanup: (() => void)[] = [];
let customerUrl = '';
let viewerToken = '';

/** Every page, with the answers >= 400 a test expects of it: none but those a test adds. */
const pages = new PageSet();

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

beforeAll(async () => {
  ensureWebBuild();
  repo = new GitFixture('acme/lib');
  repo.write('README.md', README);
  repo.release('1.0.0').release('1.1.0').release('2.0.0');
  cleanup.push(() => repo.remove());
  s = await startServer();
  await pages.launch();
  admin = await pages.open(DESKTOP, [], {
    permissions: ['clipboard-read', 'clipboard-write'],
  });
});

checkPages(pages, async () => {
  await s?.close();
  cleanup.forEach((fn) => fn());
});

describe('the admin UI in a real browser', () => {
  it('signs in with the keyboard alone, and says why a bad token is refused', async () => {
    const { page } = admin;
    pages.allow(admin, /^401 GET \/api\/v1\/session$/);
    await page.goto(`${s.url}/admin/`);
    // The Token field has focus on arrival; Tab reaches Sign in; Enter presses it.
    await page.keyboard.type('not-a-token');
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string>('document.activeElement?.textContent')).toBe('Sign in');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'not valid' }).waitFor();

    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(ADMIN_TOKEN);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Packages' }).waitFor();
    expect(page.url()).toBe(`${s.url}/admin/packages`);
    // Kept in this tab's session storage, never in the address.
    expect(page.url()).not.toContain(ADMIN_TOKEN);
    const stored = await page.evaluate<string[]>('Object.values(sessionStorage)');
    expect(stored).toContain(ADMIN_TOKEN);
    expect(await page.evaluate<string[]>('Object.values(localStorage)')).toEqual([]);
  });

  it('adds a package and shows its sync live until its versions are there', async () => {
    const { page } = admin;
    await page.getByLabel('Name', { exact: true }).fill('acme/lib');
    await page.getByLabel('Repository URL').fill(repo.url);
    await page.getByRole('button', { name: 'Add package' }).click();
    await page.getByRole('heading', { level: 1, name: 'acme/lib' }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: /^Synced$/ })
      .waitFor();
    const versions = page.getByRole('region', { name: 'Versions' });
    for (const v of ['2.0.0', '1.1.0', '1.0.0'])
      await versions.getByText(v, { exact: true }).waitFor();
    await page.getByText('Progress is live (GraphQL subscription).').waitFor();

    // A new tag, then Sync: the subscription brings the new version without a reload.
    repo.release('2.1.0');
    await page.getByRole('button', { name: 'Sync' }).click();
    await versions.getByText('2.1.0', { exact: true }).waitFor();
    await page.getByText('Added in the last sync: 2.1.0').waitFor();

    // The readme renders, and nothing in it runs.
    await page.getByRole('heading', { level: 1, name: 'Acme Lib' }).waitFor();
    expect(await page.evaluate<unknown>('window.__pwned')).toBeUndefined();
    const readme = page.locator('article.readme');
    expect(await readme.locator('script, iframe, [onerror]').count()).toBe(0);
    expect(await readme.locator('a[href^="javascript:"]').count()).toBe(0);

    // Yank, then unyank, a version.
    await page.getByRole('button', { name: 'Yank 1.0.0' }).click();
    await page.getByRole('button', { name: 'Unyank 1.0.0' }).click();
    await page.getByRole('button', { name: 'Yank 1.0.0' }).waitFor();
    await screenshot(page, 'desktop-package');

    // Monorepo children on demand: for an ordinary package the monorepo view answers 404, said
    // in words (the one error answer asked for on purpose; a page visit asks nothing that fails).
    pages.allow(admin, /^404 GET \/api\/v1\/packages\/acme\/lib\/monorepo$/);
    await page.getByRole('button', { name: 'Show monorepo children' }).click();
    await page.getByText('Not a monorepo: no folders were declared').waitFor();

    await nav(page, 'Packages');
    await page.getByRole('link', { name: 'acme/lib' }).waitFor();
    await screenshot(page, 'desktop-packages');
  });

  it('creates a customer and grants the package with a constraint preview', async () => {
    const { page } = admin;
    await nav(page, 'Customers');
    await page.getByLabel('Name', { exact: true }).fill('Initech');
    await page.getByLabel('Email').fill('it@initech.test');
    await page.getByRole('button', { name: 'Create customer' }).click();
    await page.getByRole('heading', { level: 1, name: 'Initech' }).waitFor();
    customerUrl = page.url();

    await page.getByLabel('Package', { exact: true }).fill('acme/lib');
    await page.getByLabel('Constraint', { exact: true }).fill('^1.0');
    const preview = page.getByRole('status', { name: 'Constraint preview' });
    await preview.filter({ hasText: 'Visible: 1.1.0, 1.0.0 (2 of 5).' }).waitFor();
    await page.getByLabel('Constraint', { exact: true }).fill('^3');
    await preview.filter({ hasText: 'shows none of the 5 versions' }).waitFor();
    await page.getByLabel('Constraint', { exact: true }).fill('^1.0');
    await preview.filter({ hasText: 'Visible: 1.1.0, 1.0.0' }).waitFor();
    await page.getByRole('button', { name: 'Grant access' }).click();
    const grants = page.getByRole('region', { name: 'Packages granted' });
    await grants.getByRole('cell', { name: '^1.0' }).waitFor();

    // A second grant of the same package is refused, in words, next to the form.
    pages.allow(admin, /^409 POST \/api\/v1\/customers\/[^/]+\/packages$/);
    await page.getByLabel('Package', { exact: true }).fill('acme/lib');
    await page.getByRole('button', { name: 'Grant access' }).click();
    await page.getByRole('alert').filter({ hasText: 'conflicts with the current state' }).waitFor();
  });

  it('creates a token, shows it once with auth.json, and Composer installs with it', async () => {
    const { page } = admin;
    await page.getByLabel('Name', { exact: true }).fill('ci');
    await page.getByLabel('Scope').selectOption('download');
    await page.getByRole('button', { name: 'Create token' }).click();
    const value = (await page.getByLabel('Token value', { exact: true }).innerText()).trim();
    expect(value).toMatch(/^pkt_/);
    const authJson = JSON.parse(await page.getByLabel('auth.json', { exact: true }).innerText());
    const host = new URL(s.url).host;
    expect(authJson['http-basic'][host]).toEqual({ username: 'token', password: value });
    await page.getByRole('button', { name: 'Copy auth.json' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    await screenshot(page, 'desktop-customer');

    const project = new ComposerProject(s.url, 'placeholder');
    cleanup.push(() => project.remove());
    project.writeJson('auth.json', authJson);
    const install = await project.run(['require', 'acme/lib']);
    expect(install.code, install.output).toBe(0);
    expect(project.lockedVersion('acme/lib')).toBe('1.1.0');

    // Shown once: after "I have copied it" the value is gone for good.
    await page.getByRole('button', { name: 'I have copied it' }).click();
    expect(await page.getByText(value).count()).toBe(0);

    // Suspended with a reason, the customer's token stops working; reactivated, it works again.
    await page.getByLabel('Reason').fill('unpaid invoice');
    await page.getByRole('button', { name: 'Suspend' }).click();
    await page.getByText('reason: unpaid invoice').waitFor();
    const refused = await project.run(['update']);
    expect(refused.code).not.toBe(0);
    await page.getByRole('button', { name: 'Reactivate' }).click();
    await page.getByRole('button', { name: 'Suspend' }).waitFor();
    const again = await project.run(['update']);
    expect(again.code, again.output).toBe(0);
  });

  it('edits, freezes and reactivates a customer; grants a collection; rotates and revokes', async () => {
    const { page } = admin;
    await nav(page, 'Collections');
    await page.getByLabel('Name', { exact: true }).fill('Pro bundle');
    await page.getByLabel('Slug').fill('pro-bundle');
    await page.getByLabel('Members').fill('acme/lib');
    await page.getByRole('button', { name: 'Create collection' }).click();
    await page.getByRole('heading', { name: 'Pro bundle (pro-bundle)' }).waitFor();

    await page.goto(customerUrl);
    await page.getByRole('heading', { level: 1, name: 'Initech' }).waitFor();
    await page.getByLabel('Collection', { exact: true }).selectOption('pro-bundle');
    await page.getByRole('button', { name: 'Grant collection' }).click();
    await page
      .getByRole('region', { name: 'Packages granted' })
      .getByText('collection pro-bundle')
      .waitFor();

    await page.getByRole('button', { name: 'Edit details' }).click();
    await page.getByLabel('Email').fill('ops@initech.test');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('ops@initech.test · since').waitFor();

    await page.getByRole('button', { name: 'Freeze at visible versions' }).click();
    await page.locator('.badge', { hasText: 'FROZEN' }).waitFor();
    await page.getByRole('button', { name: 'Reactivate' }).click();
    await page.locator('.badge', { hasText: 'ACTIVE' }).waitFor();

    await page.getByRole('button', { name: 'Rotate ci' }).click();
    const rotated = (await page.getByLabel('Token value', { exact: true }).innerText()).trim();
    expect(rotated).toMatch(/^pkt_/);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByRole('button', { name: 'Revoke ci' }).click();
    await page.getByRole('region', { name: 'Tokens' }).getByText('No tokens yet.').waitFor();
  });

  it('creates a viewer team token; the viewer sees everything and can change nothing', async () => {
    const { page } = admin;
    await nav(page, 'Team');
    await page.getByLabel('Name', { exact: true }).fill('auditor');
    await page.getByLabel('Level').selectOption('viewer');
    await page.getByRole('button', { name: 'Create token' }).click();
    viewerToken = (await page.getByLabel('Token value', { exact: true }).innerText()).trim();
    expect(viewerToken).toMatch(/^cma_/);

    const viewer = await pages.open(DESKTOP, [/^403 POST \/api\/v1\/customers$/]);
    const v = viewer.page;
    await signIn(v, s.url, viewerToken);
    await v.getByText('You are signed in with a viewer token').waitFor();
    await v.getByRole('link', { name: 'acme/lib' }).waitFor();
    expect(await v.getByRole('button', { name: 'Add package' }).count()).toBe(0);
    await v.getByRole('link', { name: 'acme/lib' }).click();
    await v.getByRole('region', { name: 'Versions' }).getByText('1.1.0', { exact: true }).waitFor();
    expect(await v.getByRole('button', { name: 'Sync' }).count()).toBe(0);
    expect(await v.getByRole('button', { name: /^Yank/ }).count()).toBe(0);
    await v.goto(customerUrl);
    await v.getByRole('heading', { level: 1, name: 'Initech' }).waitFor();
    await v
      .getByRole('region', { name: 'Packages granted' })
      .getByText('acme/lib')
      .first()
      .waitFor();
    for (const name of ['Grant access', 'Create token', 'Suspend', 'Reactivate']) {
      expect(await v.getByRole('button', { name }).count(), name).toBe(0);
    }
    // The server refuses anyway.
    const status = await v.evaluate<number>(`(async () => {
      const token = Object.values(sessionStorage)[0];
      const res = await fetch('/api/v1/customers', {
        method: 'POST',
        headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Nope', email: 'nope@example.test' }),
      });
      return res.status;
    })()`);
    expect(status).toBe(403);
    await nav(v, 'Team');
    await v.getByText('Only owner tokens create and revoke team tokens.').waitFor();
    await v.getByRole('button', { name: 'Sign out' }).click();
    await v.getByLabel('Token').waitFor();
    expect(await v.evaluate<string[]>('Object.values(sessionStorage)')).toEqual([]);
  });

  it('shows every main view at 1280x800 without sideways scrolling', async () => {
    const { page } = admin;
    for (const view of [
      'Packages',
      'Customers',
      'Collections',
      'Team',
      'Statistics',
      'Vulnerabilities',
      'Audit log',
      'Tasks',
      'Webhooks',
      'Events',
    ]) {
      await nav(page, view);
      await loaded(page);
      expect(await overflowsSideways(page), view).toBe(false);
      await screenshot(page, `desktop-${view.toLowerCase().replace(' ', '-')}`);
    }
    await nav(page, 'Statistics');
    await page.getByRole('img', { name: 'Downloads per package' }).locator('canvas').waitFor();
    await page
      .getByRole('region', { name: 'Downloads per package' })
      .getByText('acme/lib')
      .waitFor();
    await nav(page, 'Vulnerabilities');
    // The Vulnerabilities API answers (issue 13); nothing is affected in this registry.
    await page.getByText('No known advisory affects your packages').waitFor();
    await nav(page, 'Audit log');
    await page.getByLabel('Action').fill('customer.suspend');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('region', { name: 'Audit log' }).getByText('customer.suspend').waitFor();
    await nav(page, 'Tasks');
    await page.getByRole('region', { name: 'Tasks' }).getByText('acme/lib').first().waitFor();
  });

  it('asks nothing that fails in the normal flows: packages, a package, customers, a customer', async () => {
    const tracked = await pages.open(DESKTOP);
    const log = watchRequests(tracked.page);
    const p = tracked.page;
    await signIn(p, s.url, ADMIN_TOKEN);
    await p.getByRole('link', { name: 'acme/lib' }).click();
    await p.getByRole('heading', { level: 1, name: 'acme/lib' }).waitFor();
    await p.getByRole('region', { name: 'Versions' }).getByText('1.1.0', { exact: true }).waitFor();
    await p.getByRole('heading', { level: 1, name: 'Acme Lib' }).waitFor();
    // Whether it is a monorepo is asked only when a person asks.
    await p.getByRole('button', { name: 'Show monorepo children' }).waitFor();
    await loaded(p);
    await log.settled();
    await nav(p, 'Customers');
    await p.getByRole('link', { name: 'Initech' }).click();
    await p.getByRole('heading', { level: 1, name: 'Initech' }).waitFor();
    await p
      .getByRole('region', { name: 'Packages granted' })
      .getByText('acme/lib')
      .first()
      .waitFor();
    await loaded(p);
    await log.settled();

    const errors = log.answers.filter((a) => /^[45]\d\d /.test(a));
    expect(errors, 'answers >= 400').toEqual([]);
    // The package page read the package; it asked for no monorepo view of an ordinary package.
    expect(log.answers).toContain('200 GET /api/v1/packages/acme/lib');
    expect(log.answers.filter((a) => a.includes('/monorepo'))).toEqual([]);
  });

  it('works on a 390-pixel phone: every page fits, every button reachable', async () => {
    const phone = await pages.open(PHONE);
    const p = phone.page;
    await signIn(p, s.url, ADMIN_TOKEN);
    for (const view of [
      'Packages',
      'Customers',
      'Collections',
      'Team',
      'Statistics',
      'Vulnerabilities',
      'Audit log',
      'Tasks',
      'Webhooks',
      'Events',
    ]) {
      await nav(p, view);
      await loaded(p);
      expect(await overflowsSideways(p), view).toBe(false);
      await expectFits(p, view);
      await screenshot(p, `phone-${view.toLowerCase().replace(' ', '-')}`);
    }
    await nav(p, 'Team');
    await expectWhole(p, 'Team tokens');
    await expectReachable(p.getByRole('button', { name: 'Revoke auditor' }));
    await nav(p, 'Collections');
    await expectReachable(p.getByRole('button', { name: 'Delete collection Pro bundle' }));
    await nav(p, 'Tasks');
    await expectWhole(p, 'Tasks');
    await expectReachable(p.getByRole('button', { name: 'Run cleanup' }));

    // A package with versions: the Yank and Deprecate buttons of a row are on the screen and work.
    await nav(p, 'Packages');
    await p.getByRole('link', { name: 'acme/lib' }).click();
    await p.getByRole('region', { name: 'Versions' }).getByText('1.0.0', { exact: true }).waitFor();
    await loaded(p);
    await expectFits(p, 'package');
    await expectWhole(p, 'Versions');
    await expectReachable(p.getByRole('button', { name: 'Deprecate 1.0.0' }));
    await expectReachable(p.getByRole('button', { name: 'Yank 1.0.0' }));
    await screenshot(p, 'phone-package');
    await p.getByRole('button', { name: 'Yank 1.0.0' }).click();
    const unyank = p.getByRole('button', { name: 'Unyank 1.0.0' });
    await unyank.waitFor();
    await expectReachable(unyank);
    await unyank.click();
    await p.getByRole('button', { name: 'Yank 1.0.0' }).waitFor();
    await expectReachable(p.getByRole('button', { name: 'Sync' }));

    // A customer with grants and tokens: the token shown once, then its row's buttons.
    await p.goto(customerUrl);
    await p.getByRole('heading', { level: 1, name: 'Initech' }).waitFor();
    await loaded(p);
    await expectFits(p, 'customer');
    await expectReachable(p.getByRole('button', { name: 'Grant access' }));
    await p.getByLabel('Name', { exact: true }).fill('phone');
    await p.getByRole('button', { name: 'Create token' }).click();
    await p.getByLabel('auth.json', { exact: true }).waitFor();
    await expectFits(p, 'customer with a new token');
    await expectReachable(p.getByRole('button', { name: 'Copy auth.json' }));
    await p.getByRole('button', { name: 'I have copied it' }).click();
    await expectReachable(p.getByRole('button', { name: 'Rotate phone' }));
    await expectReachable(p.getByRole('button', { name: 'Revoke phone' }));
    await expectReachable(p.getByRole('button', { name: 'Revoke acme/lib' }));
    await expectReachable(p.getByRole('button', { name: 'Revoke collection Pro bundle' }));
    await expectFits(p, 'customer with tokens');
    await expectWhole(p, 'Tokens');
    await expectWhole(p, 'Packages granted');
    await screenshot(p, 'phone-customer');
  });
});
