import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ensureWebBuild } from '../../scripts/web-build.js';
import { ADMIN_TOKEN } from '../helpers.js';
import { adminApi } from '../factories.js';
import { startServer } from '../e2e/server.js';
import type { RunningServer } from '../e2e/server.js';
import {
  DESKTOP,
  PHONE,
  launchBrowser,
  openPage,
  overflowsSideways,
  screenshot,
  signIn,
} from '../e2e/browser.js';
import type { TrackedPage } from '../e2e/browser.js';
import { expectFits, expectReachable, watchRequests } from '../e2e/admin-ui-phone.js';

// The admin UI's Webhooks and Events pages in Chromium against a real Pro server, delivering to
// a real HTTP receiver this test starts (docs/admin-ui.md, docs/webhooks-outgoing.md).

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A local receiver of webhook POSTs: records each one and answers `status`. */
class Receiver {
  readonly received: Received[] = [];
  status = 200;
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      this.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(this.status, { 'content-type': 'text/plain' });
      res.end(this.status < 300 ? 'ok' : 'nope');
    });
  });
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  of(type: string): Received[] {
    return this.received.filter((r) => r.headers['packyard-event'] === type);
  }
}

let s: RunningServer;
let browser: Browser;
let admin: TrackedPage;
let viewerToken = '';
let secret = '';
const receiver = new Receiver();
const pages: TrackedPage[] = [];
/** Answers >= 400 a test expects (the rest fail it), per page. */
const allowed = new Map<TrackedPage, RegExp[]>();
const POLL = { timeout: 20_000, interval: 100 };

async function nav(page: Page, link: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link }).click();
  await page.getByRole('heading', { level: 1, name: link, exact: true }).waitFor();
}

async function open(viewport = DESKTOP, token = ADMIN_TOKEN): Promise<TrackedPage> {
  const tracked = await openPage(browser, viewport, {
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  pages.push(tracked);
  await signIn(tracked.page, s.url, token);
  return tracked;
}

const deliveries = (page: Page) => page.getByRole('region', { name: 'Deliveries' });

/** The cells of the newest delivery of an event type: [event, status, attempts, response, …]. */
const deliveryCells = (page: Page, type: string) =>
  deliveries(page).getByRole('row').filter({ hasText: type }).first().getByRole('cell');

/** Status, attempts and response of the newest delivery of an event type. */
async function deliveryState(page: Page, type: string): Promise<string[]> {
  const cells = await deliveryCells(page, type).allInnerTexts();
  return cells.slice(1, 4).map((c) => c.trim());
}

/** Whether a delivery's signature header is the HMAC-SHA256 of "<t>.<body>" under the secret. */
function signedWith(r: Received, key: string): boolean {
  const header = String(r.headers['packyard-signature'] ?? '');
  const t = /t=(\d+)/.exec(header)?.[1];
  const v1 = /v1=([0-9a-f]+)/.exec(header)?.[1];
  if (!t || !v1) return false;
  const want = crypto.createHmac('sha256', key).update(`${t}.${r.body}`).digest('hex');
  return want === v1;
}

beforeAll(async () => {
  ensureWebBuild();
  await receiver.start();
  // Retries wait an hour: every new attempt in these tests is one the page asked for.
  s = await startServer({ EDITION: 'pro', OUTGOING_WEBHOOK_RETRY_SECONDS: '3600' });
  viewerToken = (
    (await adminApi(s)('POST', '/api/v1/team/tokens', { name: 'auditor', level: 'viewer' })) as {
      plain_token: string;
    }
  ).plain_token;
  browser = await launchBrowser();
  admin = await open();
});

afterEach(() => {
  for (const p of pages) {
    expect(p.problems.pageErrors, 'page errors').toEqual([]);
    expect(p.problems.failedRequests, 'failed requests').toEqual([]);
    const ok = allowed.get(p) ?? [];
    const unexpected = p.problems.errorResponses.filter((r) => !ok.some((re) => re.test(r)));
    p.problems.errorResponses.length = 0;
    expect(unexpected, 'unexpected error answers').toEqual([]);
  }
});

afterAll(async () => {
  await Promise.all(pages.map((p) => p.close()));
  await browser?.close();
  await s?.close();
  await receiver.close();
});

describe('the Webhooks page in a real browser', () => {
  it('refuses an endpoint without events, then creates one and shows its secret once', async () => {
    const { page } = admin;
    allowed.set(admin, [/^400 POST \/api\/v1\/webhook-endpoints$/]);
    await nav(page, 'Webhooks');
    await page.getByText('No webhook endpoints yet.').waitFor();
    const form = page.getByRole('form', { name: 'New webhook endpoint' });
    await form.getByLabel('URL', { exact: true }).fill(receiver.url);
    await form.getByLabel('Description', { exact: true }).fill('CI builds');
    await form.getByRole('button', { name: 'Create endpoint' }).click();
    await form.getByRole('alert').filter({ hasText: 'Please check the form' }).waitFor();
    expect(await form.getByRole('group', { name: 'Events' }).getAttribute('aria-invalid')).toBe(
      'true',
    );

    await form.getByLabel('package.created').check();
    await form.getByLabel('version.published').check();
    await form.getByText('2 of 19 chosen').waitFor();
    await form.getByRole('button', { name: 'Create endpoint' }).click();
    const once = page.getByRole('region', { name: /copy its signing secret now/ });
    const shown = once.getByLabel('Signing secret', { exact: true });
    await shown.waitFor();
    secret = (await shown.innerText()).trim();
    expect(secret).toMatch(/^whsec_\S+$/);
    await once.getByRole('button', { name: 'Copy Signing secret' }).click();
    await once.getByText('Copied', { exact: true }).waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(secret);
    // The form is empty again, ready for the next endpoint.
    expect(await form.getByLabel('URL', { exact: true }).inputValue()).toBe('');

    const row = page
      .getByRole('region', { name: 'Webhook endpoints' })
      .getByRole('row')
      .filter({ hasText: receiver.url });
    await expect
      .poll(() => row.getByRole('cell').allInnerTexts(), POLL)
      .toEqual([
        receiver.url,
        'package.created, version.published',
        'active',
        'CI builds',
        expect.stringMatching(/UTC$/),
      ]);
    await screenshot(page, 'desktop-webhooks');
    await once.getByRole('button', { name: 'I have copied it' }).click();
    expect(await page.getByText(secret).count()).toBe(0);
  });

  it('pings the endpoint: the receiver gets a signed POST and the delivery succeeds', async () => {
    const { page } = admin;
    await page.getByRole('link', { name: receiver.url, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhook endpoint' }).waitFor();
    const settings = page.getByRole('region', { name: 'Settings' });
    await settings.getByText('set (shown only when created)').waitFor();
    expect(await page.getByText(secret).count()).toBe(0);
    await page.getByText('No deliveries yet.').waitFor();

    await page.getByRole('button', { name: 'Ping', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Ping queued' }).waitFor();
    await expect.poll(() => deliveryState(page, 'ping'), POLL).toEqual(['succeeded', '1', '200']);
    const cells = await deliveryCells(page, 'ping').allInnerTexts();
    expect(cells[4]).toMatch(/^\d+ ms$/);
    expect(cells[6]).toBe('—');

    expect(receiver.of('ping')).toHaveLength(1);
    const [ping] = receiver.of('ping');
    expect(ping?.headers['content-type']).toContain('application/json');
    expect(signedWith(ping as Received, secret)).toBe(true);
    const body = JSON.parse(ping?.body ?? '{}') as { type: string; id: string; data: unknown };
    expect(body).toMatchObject({ type: 'ping', data: {} });
    // The event id the page shows is the one the receiver got.
    expect(cells[0]).toContain(body.id);
    await screenshot(page, 'desktop-webhook-endpoint');
  });

  it('shows a failing receiver’s answer, and Redeliver makes a new attempt each time', async () => {
    const { page } = admin;
    receiver.status = 500;
    await page.getByRole('button', { name: 'Ping', exact: true }).click();
    // The newest ping failed once and waits for its retry (an hour away in this test).
    await expect.poll(() => deliveryState(page, 'ping'), POLL).toEqual(['pending', '1', '500']);
    expect((await deliveryCells(page, 'ping').allInnerTexts())[6]).toMatch(/UTC$/);
    const failing = deliveries(page).getByRole('row').filter({ hasText: 'ping' }).first();
    const before = receiver.of('ping').length;

    await failing.getByRole('button', { name: /^Redeliver ping / }).click();
    await page.getByRole('status').filter({ hasText: 'Redelivery queued.' }).waitFor();
    await expect.poll(() => deliveryState(page, 'ping'), POLL).toEqual(['pending', '2', '500']);
    expect(receiver.of('ping').length).toBe(before + 1);

    receiver.status = 204;
    await failing.getByRole('button', { name: /^Redeliver ping / }).click();
    await expect.poll(() => deliveryState(page, 'ping'), POLL).toEqual(['succeeded', '3', '204']);
    expect(receiver.of('ping').length).toBe(before + 2);
    // A redelivery carries the same event.
    const ids = receiver
      .of('ping')
      .slice(before - 1)
      .map((r) => (JSON.parse(r.body) as { id: string }).id);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(1);
    expect(receiver.of('ping').every((r) => signedWith(r, secret))).toBe(true);
  });

  it('delivers a change the endpoint subscribes to, and only those', async () => {
    const { page } = admin;
    const api = adminApi(s);
    await api('POST', '/api/v1/customers', { name: 'Hooked Ltd', email: 'hooked@example.test' });
    await api('POST', '/api/v1/packages', { name: 'acme/hooked', type: 'artifact' });
    await expect
      .poll(() => deliveryState(page, 'package.created'), POLL)
      .toEqual(['succeeded', '1', '204']);
    const [created] = receiver.of('package.created');
    expect(JSON.parse(created?.body ?? '{}')).toMatchObject({
      type: 'package.created',
      data: { package: 'acme/hooked' },
    });
    expect(receiver.of('customer.created')).toEqual([]);
  });

  it('says why a delivery failed when the receiver cannot be reached', async () => {
    const { page } = admin;
    const back = page.url();
    // A port nobody listens on: the one a closed server had.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const api = adminApi(s);
    const dead = (await api('POST', '/api/v1/webhook-endpoints', {
      url: `http://127.0.0.1:${port}/gone`,
      events: ['package.deleted'],
    })) as { id: string };
    await nav(page, 'Webhooks');
    await page.getByRole('link', { name: `http://127.0.0.1:${port}/gone`, exact: true }).click();
    await page.getByRole('button', { name: 'Ping', exact: true }).click();
    await expect
      .poll(() => deliveryState(page, 'ping'), POLL)
      .toEqual(['pending', '1', expect.stringContaining('ECONNREFUSED')]);
    await page.goto(back);
    await page.getByRole('button', { name: 'Ping', exact: true }).waitFor();
    await api('DELETE', `/api/v1/webhook-endpoints/${dead.id}`);
  });

  it('edits the endpoint, deactivates and activates it', async () => {
    const { page } = admin;
    await page.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Edit endpoint' });
    await form.getByLabel('Description', { exact: true }).fill('CI and chat');
    await form.getByLabel('customer.created').check();
    await form.getByLabel('version.published').uncheck();
    await form.getByRole('button', { name: 'Save changes' }).click();
    const settings = page.getByRole('region', { name: 'Settings' });
    await settings.getByText('CI and chat').waitFor();
    await settings.getByText('package.created, customer.created').waitFor();

    await page.getByRole('button', { name: 'Deactivate' }).click();
    await settings.getByText('inactive', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Activate' }).click();
    await settings.getByText('active', { exact: true }).waitFor();
  });

  it('shows a viewer the endpoints and deliveries without any control that writes', async () => {
    const viewer = await open(DESKTOP, viewerToken);
    const v = viewer.page;
    await nav(v, 'Webhooks');
    await v.getByRole('link', { name: receiver.url, exact: true }).waitFor();
    expect(await v.getByRole('form', { name: 'New webhook endpoint' }).count()).toBe(0);
    expect(await v.getByRole('button', { name: 'Create endpoint' }).count()).toBe(0);
    await v.getByRole('link', { name: receiver.url, exact: true }).click();
    await deliveries(v).getByText('package.created').waitFor();
    for (const name of ['Ping', 'Edit', 'Activate', 'Delete endpoint', 'Redeliver']) {
      expect(await v.getByRole('button', { name }).count(), name).toBe(0);
    }
    await viewer.close();
  });

  it('fits a 390-pixel phone, with Ping and Redeliver on the screen', async () => {
    const phone = await open(PHONE);
    const p = phone.page;
    await nav(p, 'Webhooks');
    await p.getByRole('link', { name: receiver.url, exact: true }).waitFor();
    expect(await overflowsSideways(p)).toBe(false);
    await expectFits(p, 'webhooks');
    await expectReachable(p.getByRole('button', { name: 'Create endpoint' }));
    await expectReachable(p.getByLabel('proxy.upstream_recovered'));
    await screenshot(p, 'phone-webhooks');
    await p.getByRole('link', { name: receiver.url, exact: true }).click();
    await deliveries(p).getByText('package.created').waitFor();
    expect(await overflowsSideways(p)).toBe(false);
    await expectFits(p, 'webhook endpoint');
    await expectReachable(p.getByRole('button', { name: 'Ping', exact: true }));
    await expectReachable(p.getByRole('button', { name: /^Redeliver package\.created / }));
    await screenshot(p, 'phone-webhook-endpoint');
    await nav(p, 'Events');
    await p
      .getByRole('region', { name: 'Events' })
      .getByRole('cell', { name: 'acme/hooked', exact: true })
      .first()
      .waitFor();
    expect(await overflowsSideways(p)).toBe(false);
    await expectFits(p, 'events');
    await screenshot(p, 'phone-events');
    await phone.close();
  });

  it('lists the event feed with a type filter, paging forward by cursor', async () => {
    const { page } = admin;
    const api = adminApi(s);
    for (let i = 0; i < 55; i++) {
      await api('POST', '/api/v1/customers', { name: `Bulk ${i}`, email: `bulk${i}@example.test` });
    }
    await nav(page, 'Events');
    const events = page.getByRole('region', { name: 'Events' });
    await page.getByLabel('Type', { exact: true }).selectOption('customer.created');
    // Oldest first: the first page starts with the first customer and holds 50.
    await expect.poll(() => events.getByRole('row').count(), POLL).toBe(51);
    await events.getByRole('row').nth(1).getByText('customer.created').waitFor();
    expect(await events.getByText('package.created').count()).toBe(0);
    await page.getByRole('button', { name: 'Newer events' }).click();
    await page.getByText('Page 2 · 6 shown').waitFor();
    expect(await page.getByRole('button', { name: 'Newer events' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Older events' }).click();
    await page.getByText('Page 1 · 50 shown').waitFor();
    await page.getByLabel('Type', { exact: true }).selectOption('package.created');
    await events.getByRole('cell', { name: 'acme/hooked', exact: true }).waitFor();
    await screenshot(page, 'desktop-events');
    // The subject links to the package's page.
    await events.getByRole('link', { name: 'acme/hooked', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'acme/hooked' }).waitFor();
  });

  it('deletes the endpoint only after a confirmation', async () => {
    const { page } = admin;
    await nav(page, 'Webhooks');
    await page.getByRole('link', { name: receiver.url, exact: true }).click();
    await page.getByRole('button', { name: 'Delete endpoint' }).click();
    await page.getByRole('button', { name: 'Keep it' }).click();
    expect(await page.getByRole('button', { name: 'Yes, delete it' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Delete endpoint' }).click();
    await page.getByRole('button', { name: 'Yes, delete it' }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhooks', exact: true }).waitFor();
    await page.getByText('No webhook endpoints yet.').waitFor();
    const list = (await adminApi(s)('GET', '/api/v1/webhook-endpoints')) as { data: unknown[] };
    expect(list.data).toEqual([]);
  });
});

describe('an edition without webhooks', () => {
  it('says the feature needs Pro without asking the API for it', async () => {
    const community = await startServer({ EDITION: 'community' });
    try {
      const tracked = await openPage(browser, DESKTOP);
      pages.push(tracked);
      const log = watchRequests(tracked.page);
      const { page } = tracked;
      await signIn(page, community.url, ADMIN_TOKEN);
      for (const view of ['Webhooks', 'Events']) {
        await nav(page, view);
        await page
          .getByRole('heading', { level: 2, name: 'Not available in this edition' })
          .waitFor();
      }
      await log.settled();
      expect(await page.getByRole('button', { name: 'Create endpoint' }).count()).toBe(0);
      expect(log.answers.filter((a) => /webhook-endpoints|\/events/.test(a))).toEqual([]);
    } finally {
      await community.close();
    }
  });
});
