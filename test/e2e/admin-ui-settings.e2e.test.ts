import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ensureWebBuild } from '../../scripts/web-build.js';
import { adminApi } from '../factories.js';
import { ADMIN_TOKEN } from '../helpers.js';
import { startServer } from './server.js';
import type { RunningServer } from './server.js';
import { DESKTOP, PHONE, PageSet, checkPages, nav, screenshot, signIn } from './browser.js';
import { expectFits, expectReachable } from './admin-ui-phone.js';

// The admin UI's Settings page (docs/admin-ui.md) in Chromium: e-mails and the portal's
// branding saved through the form, the API's refusal shown by the form, the portal showing them.
let s: RunningServer;
const pages = new PageSet();

async function toSettings(page: Page) {
  await nav(page, 'Settings');
  await page.getByRole('heading', { name: 'Current settings' }).waitFor();
}

const current = (page: Page) => page.getByRole('region', { name: 'Current settings' });

beforeAll(async () => {
  ensureWebBuild();
  s = await startServer();
  await pages.launch();
});

checkPages(pages, () => s?.close());

describe('the Settings page in a real browser', () => {
  it('shows the API’s refusal of a bad address next to the form, and saves nothing', async () => {
    const { page } = await pages.open(DESKTOP, [/^400 PATCH \/api\/v1\/settings$/]);
    await signIn(page, s.url, ADMIN_TOKEN);
    await toSettings(page);
    await current(page).getByText('none').waitFor();

    await page.getByLabel('Notification e-mails').fill('ops@acme.example\nnot an address');
    await page.getByLabel('Portal title').fill('Acme packages');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'Please check the form' }).waitFor();
    const emails = page.getByLabel('Notification e-mails');
    expect(await emails.getAttribute('aria-invalid')).toBe('true');
    await page.getByText(/line 2: .*email/).waitFor();
    // Nothing of the refused change was kept.
    const kept = await adminApi(s)('GET', '/api/v1/settings');
    expect(kept.notification_emails).toEqual([]);
    expect(kept.portal).toEqual({ title: null, accent_color: null });
  });

  it('saves e-mails and the portal branding, and the portal shows the new title', async () => {
    const { page } = await pages.open();
    await signIn(page, s.url, ADMIN_TOKEN);
    await toSettings(page);
    await page.getByLabel('Notification e-mails').fill('ops@acme.example\n\ndev@acme.example\n');
    await page.getByLabel('Portal title').fill('Acme packages');
    await page.getByLabel('Portal accent colour').fill('#AA3300');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();

    await current(page).getByText('dev@acme.example').waitFor();
    await current(page).getByText('Acme packages').waitFor();
    await current(page).getByText('#aa3300').waitFor();
    expect(await adminApi(s)('GET', '/api/v1/settings')).toMatchObject({
      notification_emails: ['ops@acme.example', 'dev@acme.example'],
      portal: { title: 'Acme packages', accent_color: '#aa3300' },
    });
    // What is shown after a reload is what the server kept.
    await page.reload();
    await page.getByRole('heading', { name: 'Current settings' }).waitFor();
    expect(await page.getByLabel('Portal title').inputValue()).toBe('Acme packages');
    expect(await page.getByLabel('Colour picker').inputValue()).toBe('#aa3300');
    await screenshot(page, 'admin-settings');

    const portal = await pages.open();
    await portal.page.goto(`${s.url}/portal/`);
    await portal.page.getByRole('heading', { level: 1, name: 'Acme packages' }).waitFor();
    expect(await portal.page.title()).toContain('Acme packages');

    // A portal title cleared goes back to the default heading.
    await page.getByLabel('Portal title').fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await current(page).getByText('default (Packages)').waitFor();
    await portal.page.reload();
    await portal.page.getByRole('heading', { level: 1, name: 'Packages' }).waitFor();
  });

  it('sets an inbound webhook secret without showing it, and clears it', async () => {
    const { page } = await pages.open();
    await signIn(page, s.url, ADMIN_TOKEN);
    await toSettings(page);
    await page.getByLabel('GitHub webhook secret').fill('gh-secret-value');
    await page.getByRole('button', { name: 'Save' }).click();
    await current(page).getByText('GitHub: set').waitFor();
    expect(await page.getByLabel('GitHub webhook secret').inputValue()).toBe('');
    expect(await page.content()).not.toContain('gh-secret-value');
    await page.getByLabel('Clear the GitHub secret').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await current(page).getByText('GitHub: not set').waitFor();
    const after = await adminApi(s)('GET', '/api/v1/settings');
    expect(after.webhook_secrets.github).toEqual({ set: false });
    // The other settings stay as they were.
    expect(after.notification_emails).toEqual(['ops@acme.example', 'dev@acme.example']);
  });

  it('shows a viewer the settings without a form', async () => {
    const created = await adminApi(s)('POST', '/api/v1/team/tokens', {
      name: 'viewer',
      level: 'viewer',
    });
    const { page } = await pages.open();
    await signIn(page, s.url, created.plain_token as string);
    await toSettings(page);
    await current(page).getByText('ops@acme.example').waitFor();
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    expect(await page.getByLabel('Notification e-mails').count()).toBe(0);
  });

  it('fits a phone screen', async () => {
    const { page } = await pages.open(PHONE);
    await signIn(page, s.url, ADMIN_TOKEN);
    await page.goto(`${s.url}/admin/settings`);
    await page.getByRole('heading', { name: 'Current settings' }).waitFor();
    await expectFits(page, 'settings on a phone');
    await expectReachable(page.getByRole('button', { name: 'Save' }));
    await expectReachable(page.getByLabel('Colour picker'));
  });
});
