import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ensureWebBuild } from '../../scripts/web-build.js';
import { uploadVersion } from '../../src/areas/advisories/advisories.test-helpers.js';
import { ADMIN_TOKEN, waitFor } from '../helpers.js';
import { adminApi, createCustomer } from '../factories.js';
import { startServer } from './server.js';
import type { RunningServer } from './server.js';
import {
  DESKTOP,
  PHONE,
  PageSet,
  checkPages,
  nav,
  overflowsSideways,
  screenshot,
  signIn,
} from './browser.js';
import type { TrackedPage } from './browser.js';
import { expectFits, expectReachable } from './admin-ui-phone.js';

// A Pro server holding acme/widget 1.0.0, 1.1.0 and 1.2.0 and acme/gadget 2.0.0; a vendor
// advisory on the widget (<1.2.0) made over REST; a customer that downloaded widget 1.1.0.
let s: RunningServer;
let admin: TrackedPage;
let viewerToken = '';
const pages = new PageSet();

const TITLE = 'Widget leaks secrets';
const POLL = { timeout: 20_000, interval: 200 };

/** The row of the Vulnerabilities table that names an advisory title. */
const row = (page: Page, title: string) =>
  page.getByRole('region', { name: 'Vulnerabilities' }).getByRole('row').filter({ hasText: title });

async function open(viewport = DESKTOP, token = ADMIN_TOKEN): Promise<TrackedPage> {
  const tracked = await pages.open(viewport);
  await signIn(tracked.page, s.url, token);
  return tracked;
}

beforeAll(async () => {
  ensureWebBuild();
  s = await startServer({ EDITION: 'pro' });
  const api = adminApi(s);
  await api('POST', '/api/v1/packages', { name: 'acme/widget', type: 'artifact' });
  for (const v of ['1.0.0', '1.1.0', '1.2.0']) await uploadVersion(s, 'acme/widget', v);
  await api('POST', '/api/v1/packages', { name: 'acme/gadget', type: 'artifact' });
  await uploadVersion(s, 'acme/gadget', '2.0.0');

  const customer = await createCustomer(s, 'Downloader Ltd');
  await api('POST', `/api/v1/customers/${customer.id}/packages`, {
    package: 'acme/widget',
    constraint: '*',
  });
  const token = await api('POST', `/api/v1/customers/${customer.id}/tokens`, {
    name: 'ci',
    scope: 'download',
  });
  const dl = await fetch(`${s.url}/dist/acme/widget/1.1.0.0.zip`, {
    headers: { authorization: `Bearer ${token.plain_token as string}` },
  });
  expect(dl.status).toBe(200);
  await dl.arrayBuffer();

  await api('POST', '/api/v1/advisories', {
    package: 'acme/widget',
    title: TITLE,
    severity: 'critical',
    affected_versions: '>=1.0.0,<1.2.0',
    description: 'The widget logs its API key.\nUpgrade to 1.2.0.',
    cve: 'CVE-2026-4242',
    link: 'https://acme.test/sa/4242',
  });
  // The download is in the statistics before any page looks.
  await waitFor(
    () => api('GET', '/api/v1/vulnerabilities?package=acme/widget'),
    (list) => list.data[0]?.affected_customer_count === 1,
  );
  viewerToken = (await api('POST', '/api/v1/team/tokens', { name: 'auditor', level: 'viewer' }))
    .plain_token;

  await pages.launch();
  admin = await open();
});

checkPages(pages, () => s?.close());

describe('the Vulnerabilities page in a real browser', () => {
  it('lists the advisory with its severity, CVE link, affected versions and customers', async () => {
    const { page } = admin;
    await nav(page, 'Vulnerabilities');
    const widget = row(page, TITLE);
    await widget.waitFor();
    await expect
      .poll(() => widget.getByRole('cell').allInnerTexts(), POLL)
      .toEqual([
        'acme/widget',
        expect.stringContaining(TITLE),
        'critical',
        'CVE-2026-4242',
        '>=1.0.0,<1.2.0',
        '1.0.0, 1.1.0',
        '1',
      ]);
    expect(await widget.locator('.badge').innerText()).toBe('critical');
    expect(await widget.getByRole('link', { name: 'CVE-2026-4242' }).getAttribute('href')).toBe(
      'https://acme.test/sa/4242',
    );
    await screenshot(page, 'desktop-vulnerabilities-list');

    // Filters: another severity shows nothing; the package filter finds it again.
    await page.getByLabel('Filter by severity').selectOption('low');
    await page.getByText('No vulnerability matches these filters.').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await widget.waitFor();
    await page.getByLabel('Filter by package').fill('acme/gadget');
    await page.getByLabel('Filter by package').press('Enter');
    await page.getByText('No vulnerability matches these filters.').waitFor();
    await page.getByLabel('Filter by package').fill('acme/widget');
    await page.getByLabel('Filter by package').press('Enter');
    await widget.waitFor();
    expect(page.url()).toContain('package=acme%2Fwidget');
  });

  it('opens the detail with the keyboard: description, sources, patched versions, customers', async () => {
    const { page } = admin;
    await row(page, TITLE).getByRole('link', { name: TITLE }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
    await page.getByText('The widget logs its API key.').waitFor();
    const facts = page.getByRole('region', { name: 'Advisory' });
    await facts.getByText('vendor: PKYD-').waitFor();
    await facts.getByText('1.2.0', { exact: true }).waitFor();
    await facts.getByText('1.0.0, 1.1.0', { exact: true }).waitFor();
    const customers = page.getByRole('region', {
      name: 'Customers who downloaded an affected version',
    });
    const downloader = customers.getByRole('row').filter({ hasText: 'Downloader Ltd' });
    await expect
      .poll(() => downloader.getByRole('cell').allInnerTexts(), POLL)
      .toEqual(['Downloader Ltd', '1.1.0']);
    await screenshot(page, 'desktop-vulnerability');
    await downloader.getByRole('link', { name: 'Downloader Ltd' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Downloader Ltd' }).waitFor();
  });

  it('publishes an advisory through the form, the API’s field errors shown next to it', async () => {
    const { page } = admin;
    pages.allow(admin, /^400 POST \/api\/v1\/advisories$/);
    await nav(page, 'Vulnerabilities');
    const form = page.getByRole('form', { name: 'Publish an advisory' });
    await form.getByLabel('Package', { exact: true }).fill('acme/gadget');
    await form.getByLabel('Title', { exact: true }).fill('Gadget overflows');
    await form.getByLabel('Severity', { exact: true }).selectOption('high');
    await form.getByLabel('Affected versions', { exact: true }).fill('<2.1');
    await form.getByLabel('CVE', { exact: true }).fill('CVE-nope');
    await form.getByLabel('Link', { exact: true }).fill('https://acme.test/sa/7');
    await form.getByLabel('Description', { exact: true }).fill('A long name overflows.');
    await form.getByRole('button', { name: 'Publish advisory' }).click();
    await form.getByRole('alert').filter({ hasText: 'Please check the form: cve' }).waitFor();
    const cve = form.getByLabel('CVE', { exact: true });
    expect(await cve.getAttribute('aria-invalid')).toBe('true');

    // Corrected, and sent with Enter from the field.
    await cve.fill('CVE-2026-7777');
    await cve.press('Enter');
    await form
      .getByRole('status')
      .filter({ hasText: /^Published PKYD-\d{4}-\d{4}\.$/ })
      .waitFor();
    expect(await form.getByLabel('Title', { exact: true }).inputValue()).toBe('');
    const gadget = row(page, 'Gadget overflows');
    await expect
      .poll(() => gadget.getByRole('cell').allInnerTexts(), POLL)
      .toEqual([
        'acme/gadget',
        expect.stringContaining('Gadget overflows'),
        'high',
        'CVE-2026-7777',
        '<2.1',
        '2.0.0',
        '0',
      ]);
    await page
      .getByRole('region', { name: 'Advisories you published' })
      .getByRole('row')
      .filter({ hasText: 'Gadget overflows' })
      .waitFor();
    await screenshot(page, 'desktop-vulnerabilities-published');
  });

  it('queues a scan with Scan now and says when it has finished', async () => {
    const { page } = admin;
    await page.getByRole('button', { name: 'Scan now' }).click();
    const status = page.getByRole('status').filter({ hasText: /Scan (queued|finished)/ });
    await status.waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: 'Scan finished; the list is up to date.' })
      .waitFor();
    await status.getByRole('link', { name: 'See it on the Tasks page' }).click();
    await page.getByRole('heading', { level: 1, name: 'Tasks' }).waitFor();
    await page
      .getByRole('region', { name: 'Tasks' })
      .getByText('advisories.import')
      .first()
      .waitFor();
  });

  it('shows a viewer everything, with no Scan or Publish controls', async () => {
    const viewer = await open(DESKTOP, viewerToken);
    const v = viewer.page;
    await nav(v, 'Vulnerabilities');
    await row(v, TITLE).waitFor();
    await row(v, 'Gadget overflows').waitFor();
    await v.getByRole('region', { name: 'Advisories you published' }).getByText(TITLE).waitFor();
    expect(await v.getByRole('button', { name: 'Scan now' }).count()).toBe(0);
    expect(await v.getByRole('button', { name: 'Publish advisory' }).count()).toBe(0);
    expect(await v.getByRole('form', { name: 'Publish an advisory' }).count()).toBe(0);
    expect(await v.getByLabel('Title', { exact: true }).count()).toBe(0);
    await row(v, TITLE).getByRole('link', { name: TITLE }).click();
    await v
      .getByRole('region', { name: 'Customers who downloaded an affected version' })
      .getByText('Downloader Ltd')
      .waitFor();
  });

  it('shows the list and the detail on a 390-pixel phone without sideways scrolling', async () => {
    const phone = await open(PHONE);
    const p = phone.page;
    await nav(p, 'Vulnerabilities');
    await row(p, TITLE).getByRole('cell', { name: 'critical' }).waitFor();
    await p.getByRole('button', { name: 'Publish advisory' }).waitFor();
    expect(await overflowsSideways(p)).toBe(false);
    await expectFits(p, 'vulnerabilities');
    await expectReachable(p.getByRole('button', { name: 'Scan now' }));
    await expectReachable(p.getByRole('button', { name: 'Publish advisory' }));
    await screenshot(p, 'phone-vulnerabilities');
    await row(p, TITLE).getByRole('link', { name: TITLE }).click();
    await p
      .getByRole('region', { name: 'Customers who downloaded an affected version' })
      .getByText('Downloader Ltd')
      .waitFor();
    expect(await overflowsSideways(p)).toBe(false);
    await expectFits(p, 'vulnerability');
    await screenshot(p, 'phone-vulnerability');
  });
});

describe('an edition without vulnerabilities', () => {
  it('says the feature is not available in this edition instead of failing', async () => {
    const community = await startServer({ EDITION: 'community' });
    try {
      const tracked = await pages.open(DESKTOP);
      const { page } = tracked;
      await signIn(page, community.url, ADMIN_TOKEN);
      await nav(page, 'Vulnerabilities');
      await page
        .getByRole('heading', { level: 2, name: 'Not available in this edition' })
        .waitFor();
      expect(await page.getByRole('button', { name: 'Scan now' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Publish advisory' }).count()).toBe(0);
    } finally {
      await community.close();
    }
  });
});
