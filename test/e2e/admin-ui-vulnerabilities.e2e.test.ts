import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ensureWebBuild } from '../../scripts/web-build.js';
import { packageZip } from '../../src/areas/artifacts/test-zips.js';
import { ADMIN_TOKEN, basicAuth } from '../helpers.js';
import { startServer } from './server.js';
import type { RunningServer } from './server.js';
import { DESKTOP, PHONE, launchBrowser, openPage, overflowsSideways, signIn } from './browser.js';
import type { TrackedPage } from './browser.js';

/**
 * The Vulnerabilities page against the real API: a vendor advisory on a private package that a
 * customer downloaded, its detail with that customer, publishing one from the form, the scan,
 * and what a viewer and a phone see.
 */
let s: RunningServer;
let browser: Browser;
const pages: TrackedPage[] = [];
let viewerToken = '';

async function api(method: string, url: string, body?: unknown, token = ADMIN_TOKEN) {
  const res = await fetch(`${s.url}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} -> ${res.status} ${text}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

beforeAll(async () => {
  ensureWebBuild();
  s = await startServer();
  await api('POST', '/api/v1/packages', { name: 'acme/lib', type: 'artifact' });
  const upload = await fetch(`${s.url}/api/v1/packages/acme/lib/artifacts?version=1.0.0`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/zip' },
    body: packageZip({ name: 'acme/lib' }, { 'src/Lib.php': '<?php' }),
  });
  expect(upload.status).toBe(201);
  const customer = await api('POST', '/api/v1/customers', {
    name: 'Initech',
    email: 'it@initech.test',
  });
  await api('POST', `/api/v1/customers/${String(customer.id)}/packages`, {
    package: 'acme/lib',
    constraint: '*',
  });
  const token = await api('POST', `/api/v1/customers/${String(customer.id)}/tokens`, {
    name: 'ci',
  });
  // Initech downloads 1.0.0, which the advisory below affects.
  const auth = { authorization: basicAuth(String(token.plain_token)) };
  const p2 = (await (await fetch(`${s.url}/p2/acme/lib.json`, { headers: auth })).json()) as {
    packages: Record<string, { dist: { url: string } }[]>;
  };
  const zip = await fetch(p2.packages['acme/lib']![0]!.dist.url, { headers: auth });
  expect(zip.status).toBe(200);
  await zip.arrayBuffer();
  await api('POST', '/api/v1/advisories', {
    package: 'acme/lib',
    title: 'Remote code execution in the loader',
    severity: 'high',
    affected_versions: '<2.0',
    cve: 'CVE-2026-40001',
  });
  const viewer = await api('POST', '/api/v1/team/tokens', { name: 'auditor', level: 'viewer' });
  viewerToken = String(viewer.plain_token);
  browser = await launchBrowser();
});

afterAll(async () => {
  await Promise.all(pages.map((p) => p.close()));
  await browser?.close();
  await s?.close();
});

async function signedIn(token: string, viewport = DESKTOP) {
  const tracked = await openPage(browser, viewport);
  pages.push(tracked);
  await signIn(tracked.page, s.url, token);
  const nav = tracked.page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Vulnerabilities' }).click();
  await tracked.page.getByRole('heading', { level: 1, name: 'Vulnerabilities' }).waitFor();
  return tracked;
}

describe('the Vulnerabilities page', () => {
  it('lists the advisory with its severity, and its detail names the customer', async () => {
    const { page, problems } = await signedIn(ADMIN_TOKEN);
    const table = page.getByRole('region', { name: 'Vulnerabilities' });
    const row = table.getByRole('row').filter({ hasText: 'Remote code execution in the loader' });
    await row.waitFor();
    await row.getByText('high', { exact: true }).waitFor();
    await row.getByText('CVE-2026-40001').waitFor();
    await row.getByRole('cell', { name: '1.0.0' }).waitFor();

    await row.getByRole('link', { name: 'Remote code execution in the loader' }).click();
    await page
      .getByRole('heading', { level: 1, name: 'Remote code execution in the loader' })
      .waitFor();
    const customers = page.getByRole('region', { name: 'Affected customers' });
    await customers.getByRole('link', { name: 'Initech' }).waitFor();
    await customers.getByText('1.0.0').waitFor();
    expect(problems.pageErrors).toEqual([]);
  });

  it('publishes an advisory from the form, filters by severity, and queues a scan', async () => {
    const { page, problems } = await signedIn(ADMIN_TOKEN);
    await page.getByLabel('Package', { exact: true }).last().fill('acme/lib');
    await page.getByLabel('Title').fill('Path traversal in the cache');
    await page.getByLabel('Severity').last().selectOption('critical');
    await page.getByLabel('Affected versions').fill('<1.5');
    await page.getByRole('button', { name: 'Publish advisory' }).click();
    await page.getByRole('status').filter({ hasText: 'published' }).waitFor();
    const table = page.getByRole('region', { name: 'Vulnerabilities' });
    await table.getByRole('link', { name: 'Path traversal in the cache' }).waitFor();

    // A bad constraint gets the API's answer next to the form.
    await page.getByLabel('Package', { exact: true }).last().fill('acme/lib');
    await page.getByLabel('Title').fill('Broken');
    await page.getByLabel('Affected versions').fill('not a constraint ~~');
    await page.getByRole('button', { name: 'Publish advisory' }).click();
    await page.getByRole('alert').filter({ hasText: 'affected_versions' }).waitFor();

    await page.getByLabel('Severity').first().selectOption('critical');
    await table.getByRole('link', { name: 'Path traversal in the cache' }).waitFor();
    await table
      .getByRole('link', { name: 'Remote code execution in the loader' })
      .waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Scan now' }).click();
    await page.getByRole('status').filter({ hasText: 'Scan queued' }).waitFor();
    expect(problems.pageErrors).toEqual([]);
  });

  it('shows a viewer everything and offers no scan or publishing', async () => {
    const { page } = await signedIn(viewerToken);
    await page
      .getByRole('region', { name: 'Vulnerabilities' })
      .getByRole('link', { name: 'Remote code execution in the loader' })
      .waitFor();
    expect(await page.getByRole('button', { name: 'Scan now' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Publish advisory' }).count()).toBe(0);
  });

  it('fits a 390-pixel phone', async () => {
    const { page } = await signedIn(ADMIN_TOKEN, PHONE);
    await page
      .getByRole('region', { name: 'Vulnerabilities' })
      .getByRole('link', { name: 'Remote code execution in the loader' })
      .waitFor();
    expect(await overflowsSideways(page)).toBe(false);
  });
});
