import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ensureWebBuild } from '../../scripts/web-build.js';
import { GitFixture } from '../fixtures/git-repo.js';
import { ADMIN_TOKEN } from '../helpers.js';
import { startServer } from './server.js';
import type { RunningServer } from './server.js';
import { DESKTOP, launchBrowser, openPage, screenshot, signIn } from './browser.js';
import type { TrackedPage } from './browser.js';

// The community edition (no GraphQL: sync progress by polling) with 10,000 packages.
const PACKAGES = 10_000;
let s: RunningServer;
let browser: Browser;
let tab: TrackedPage;
let repo: GitFixture;

async function insertPackages(count: number) {
  const db = s.db;
  const now = new Date().toISOString();
  for (let start = 0; start < count; start += 500) {
    const rows = [];
    for (let i = start; i < Math.min(count, start + 500); i++) {
      const name = `vendor${String(i).padStart(5, '0')}/package`;
      rows.push({
        id: `pkg-scale-${i}`,
        tenant_id: 'default',
        name,
        description: `Package number ${i}`,
        repository_url: `https://git.test/${name}.git`,
        repository_key: `git.test/${name}`,
        type: 'git',
        latest_version: '1.0.0',
        default_branch: null,
        readme: null,
        synced_at: now,
        sync_status: 'ok',
        sync_error: null,
        sync_skipped: '[]',
        abandoned: 0,
        created_at: now,
        updated_at: now,
      });
    }
    await db.insertInto('packages').values(rows).execute();
  }
}

beforeAll(async () => {
  ensureWebBuild();
  repo = new GitFixture('acme/lib');
  repo.release('1.0.0');
  s = await startServer({ EDITION: 'community' });
  await insertPackages(PACKAGES);
  browser = await launchBrowser();
  tab = await openPage(browser, DESKTOP);
});

afterAll(async () => {
  await tab?.close();
  await browser?.close();
  await s?.close();
  repo?.remove();
});

describe('the admin UI on the community edition with 10,000 packages', () => {
  it('pages and searches the list on the server', async () => {
    const { page } = tab;
    await signIn(page, s.url, ADMIN_TOKEN);
    await page.getByText(`Page 1 of 400 · ${PACKAGES} in all`).waitFor();
    // One page of rows in the document, not ten thousand.
    expect(await page.getByRole('region', { name: 'Packages' }).locator('tbody tr').count()).toBe(
      25,
    );
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByRole('link', { name: 'vendor00025/package' }).waitFor();
    expect(page.url()).toContain('page=2');

    await page.getByLabel('Search packages').fill('vendor09999');
    await page.getByRole('link', { name: 'vendor09999/package' }).waitFor();
    await page.getByText('Page 1 of 1 · 1 in all').waitFor();
    await page.getByLabel('Search packages').fill('no-such-thing');
    await page.getByText('No package matches “no-such-thing”.').waitFor();
    await screenshot(page, 'scale-packages-search');
  });

  it('shows sync progress by polling where there is no GraphQL', async () => {
    const { page } = tab;
    await page.getByLabel('Search packages').fill('');
    await page.getByLabel('Name', { exact: true }).fill('acme/lib');
    await page.getByLabel('Repository URL').fill(repo.url);
    await page.getByRole('button', { name: 'Add package' }).click();
    await page.getByText('Progress refreshes every second while syncing.').waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: /^Synced$/ })
      .waitFor();
    await page
      .getByRole('region', { name: 'Versions' })
      .getByText('1.0.0', { exact: true })
      .waitFor();
  });

  it('says what the edition lacks instead of failing', async () => {
    const { page } = tab;
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('alert').filter({ hasText: 'Not available in this edition' }).waitFor();
    await page.getByRole('link', { name: 'Vulnerabilities' }).click();
    await page.getByRole('heading', { name: 'Not available in this edition' }).waitFor();
    expect(tab.problems.pageErrors).toEqual([]);
    expect(tab.problems.failedRequests).toEqual([]);
    const unexpected = tab.problems.errorResponses.filter(
      (r) => !/^403 GET \/api\/v1\/(audit|vulnerabilities)/.test(r),
    );
    expect(unexpected).toEqual([]);
  });
});
