import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';

// Checks the admin UI tests share: a page that fits a phone, a control that can be reached, and
// the requests a page made. Code run in the page is a string (the tests' TypeScript has no DOM).

interface Fit {
  /** The page's own width: more than the viewport means the page scrolls sideways. */
  scrollWidth: number;
  viewport: number;
  /** Elements past the right edge that no sideways-scrolling container of theirs brings in. */
  outside: string[];
}

const MEASURE = `(() => {
  const viewport = document.documentElement.clientWidth;
  // Reachable by scrolling a container sideways, or inside a visually hidden (1 px, clipped) box.
  const excused = (el) => {
    for (let a = el.parentElement; a; a = a.parentElement) {
      const o = getComputedStyle(a).overflowX;
      if (o === 'auto' || o === 'scroll') return true;
      if (o !== 'visible') {
        const r = a.getBoundingClientRect();
        if (r.width <= 1 || r.height <= 1) return true;
      }
    }
    return false;
  };
  const describe = (el) => {
    const cls = typeof el.className === 'string' && el.className.trim()
      ? '.' + el.className.trim().split(/\\s+/).join('.') : '';
    return el.tagName.toLowerCase() + cls + ' "' + (el.textContent || '').trim().slice(0, 40) + '"';
  };
  const outside = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || r.right <= viewport + 1) continue;
    if (!excused(el)) outside.push(describe(el));
  }
  return { scrollWidth: document.documentElement.scrollWidth, viewport, outside: outside.slice(0, 8) };
})()`;

/** The page fits its viewport: it does not scroll sideways and nothing sticks out unreachable. */
export async function expectFits(page: Page, what: string): Promise<void> {
  const fit = await page.evaluate<Fit>(MEASURE);
  expect(fit.outside, `${what}: elements past the right edge`).toEqual([]);
  expect(fit.scrollWidth, `${what}: page width`).toBeLessThanOrEqual(fit.viewport);
}

/** A region (a table) shows all of its width: nothing in it hides past a sideways scroll. */
export async function expectWhole(page: Page, region: string): Promise<void> {
  const widths = await page.evaluate<[number, number] | null>(
    `(() => {
      const el = document.querySelector('[role="region"][aria-label=${JSON.stringify(region)}]');
      return el ? [el.scrollWidth, el.clientWidth] : null;
    })()`,
  );
  expect(widths, `region ${region}`).not.toBeNull();
  const [scrollWidth, clientWidth] = widths ?? [0, 0];
  expect(scrollWidth, `${region}: width of its content`).toBeLessThanOrEqual(clientWidth);
}

/**
 * A control a person can use: scrolled into view (its container too), it is visible, wholly
 * inside the viewport, and the pointer reaches it (a trial click checks nothing covers it).
 */
export async function expectReachable(control: Locator): Promise<void> {
  await control.scrollIntoViewIfNeeded();
  expect(await control.isVisible(), 'visible').toBe(true);
  expect(await control.isEnabled(), 'enabled').toBe(true);
  const box = await control.boundingBox();
  const size = control.page().viewportSize();
  expect(box && size, 'laid out').toBeTruthy();
  if (!box || !size) return;
  expect(box.x, 'left edge').toBeGreaterThanOrEqual(0);
  expect(box.y, 'top edge').toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, 'right edge').toBeLessThanOrEqual(size.width);
  expect(box.y + box.height, 'bottom edge').toBeLessThanOrEqual(size.height);
  await control.click({ trial: true, timeout: 5_000 });
}

export interface RequestLog {
  /** Every answer the page received (`STATUS METHOD path`), in order. */
  answers: string[];
  /** Waits until no request has been in flight for a moment. */
  settled(quietMs?: number): Promise<void>;
}

/** Watches a page's requests from now on. */
export function watchRequests(page: Page): RequestLog {
  const answers: string[] = [];
  let inFlight = 0;
  let lastChange = Date.now();
  page.on('request', () => {
    inFlight++;
    lastChange = Date.now();
  });
  const done = () => {
    inFlight = Math.max(0, inFlight - 1);
    lastChange = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  page.on('response', (res) => {
    answers.push(`${res.status()} ${res.request().method()} ${new URL(res.url()).pathname}`);
  });
  return {
    answers,
    settled: (quietMs = 400) =>
      expect
        .poll(() => inFlight === 0 && Date.now() - lastChange >= quietMs, {
          timeout: 20_000,
          interval: 50,
        })
        .toBe(true),
  };
}
