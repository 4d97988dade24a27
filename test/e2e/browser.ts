import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, expect } from 'vitest';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';

/** Screenshots the UI tests take, for people to look at (ignored by git). */
export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../../.tmp/screenshots');

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** Debian's Chromium, headless, driven by playwright-core (one per test file). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox'],
  });
}

/** What went wrong in a page: uncaught errors, failed requests, error answers. */
export interface Problems {
  pageErrors: string[];
  failedRequests: string[];
  /** `STATUS METHOD path` of every answer >= 400. */
  errorResponses: string[];
}

export interface TrackedPage {
  page: Page;
  problems: Problems;
  close(): Promise<void>;
}

/** A page in its own context (own session storage) that records every problem. */
export async function openPage(
  browser: Browser,
  viewport = DESKTOP,
  options: { permissions?: string[] } = {},
): Promise<TrackedPage> {
  const context = await browser.newContext({ viewport, permissions: options.permissions ?? [] });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const problems: Problems = { pageErrors: [], failedRequests: [], errorResponses: [] };
  page.on('pageerror', (err) => problems.pageErrors.push(err.message));
  page.on('requestfailed', (req) => {
    // A request the page itself dropped while moving on (a full navigation) is not a failure.
    if (req.failure()?.errorText === 'net::ERR_ABORTED') return;
    problems.failedRequests.push(`${req.method()} ${req.url()} ${req.failure()?.errorText}`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) {
      problems.errorResponses.push(
        `${res.status()} ${res.request().method()} ${new URL(res.url()).pathname}`,
      );
    }
  });
  return { page, problems, close: () => context.close() };
}

/**
 * One test file's browser and the pages it opens, each with the answers >= 400 its tests expect.
 * `launch` starts the browser (in beforeAll); `checkPages` registers the checks after each test
 * and the closing after all.
 */
export class PageSet {
  private browser: Browser | null = null;
  private readonly allowed = new Map<TrackedPage, RegExp[]>();

  async launch(): Promise<void> {
    this.browser ??= await launchBrowser();
  }

  /** Opens a page (openPage) that may get the `expected` answers >= 400. */
  async open(
    viewport = DESKTOP,
    expected: RegExp[] = [],
    options: { permissions?: string[] } = {},
  ): Promise<TrackedPage> {
    if (!this.browser) throw new Error('PageSet.open before launch');
    const page = await openPage(this.browser, viewport, options);
    this.allowed.set(page, [...expected]);
    return page;
  }

  /** One more answer >= 400 a page may get from now on. */
  allow(page: TrackedPage, expected: RegExp): void {
    this.allowed.get(page)?.push(expected);
  }

  /** Fails on a page error, a failed request or an unexpected answer >= 400 (then forgets them). */
  assertClean(): void {
    for (const [p, ok] of this.allowed) {
      expect(p.problems.pageErrors, 'page errors').toEqual([]);
      expect(p.problems.failedRequests, 'failed requests').toEqual([]);
      const unexpected = p.problems.errorResponses.filter((r) => !ok.some((re) => re.test(r)));
      p.problems.errorResponses.length = 0;
      expect(unexpected, 'unexpected error answers').toEqual([]);
    }
  }

  /** Closes every page, then the browser. */
  async close(): Promise<void> {
    await Promise.all([...this.allowed.keys()].map((p) => p.close()));
    await this.browser?.close();
  }
}

/**
 * Registers a test file's page checks: every page clean after each test; after the last, the
 * pages and the browser closed, then `after` (the server, fixtures).
 */
export function checkPages(pages: PageSet, after: () => unknown = () => undefined): void {
  afterEach(() => pages.assertClean());
  afterAll(async () => {
    await pages.close();
    await after();
  });
}

/** Follows a link of a navigation (the admin UI's `Main`) and waits for its page's heading. */
export async function nav(page: Page, link: string, navigation = 'Main'): Promise<void> {
  await page
    .getByRole('navigation', { name: navigation })
    .getByRole('link', { name: link })
    .click();
  await page.getByRole('heading', { level: 1, name: link }).waitFor();
}

/** Waits until no "Loading …" status is left (a page may load several lists at once). */
export async function loaded(page: Page): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate<boolean>(
          `[...document.querySelectorAll('[role="status"]')].some((e) => /^Loading/.test(e.textContent ?? ''))`,
        ),
      { timeout: 20_000, interval: 50 },
    )
    .toBe(false);
}

/** Signs in by the form, as a person would, and waits for the packages page. */
export async function signIn(page: Page, baseUrl: string, token: string): Promise<void> {
  await page.goto(`${baseUrl}/admin/`);
  await page.getByLabel('Token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Packages' }).waitFor();
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

// Code run in the page is passed as a string: this project's TypeScript has no DOM library.

/** Whether the page is wider than its viewport (content cut off on a phone). */
export function overflowsSideways(page: Page): Promise<boolean> {
  return page.evaluate<boolean>(
    'document.documentElement.scrollWidth > document.documentElement.clientWidth + 1',
  );
}
