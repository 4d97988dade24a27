import fs from 'node:fs';
import path from 'node:path';
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
