import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { adminApi, createCustomer } from '../../../test/factories.js';
import { ensureWebBuild } from '../../../scripts/web-build.js';
import { ADMIN_UI_CSP, WEB_DIST, adminUiRoutes } from './routes.js';
import type { App } from '../../http/app-types.js';

let t: TestApp;

beforeAll(async () => {
  ensureWebBuild();
  t = await createTestApp({ WORKER: 'off' });
});

afterAll(async () => {
  await t.close();
});

describe('the admin UI at /admin', () => {
  it('serves the built page with a strict CSP and no framing', async () => {
    const res = await t.app.inject({ url: '/admin/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('<div id="root"></div>');
    expect(res.headers['content-security-policy']).toBe(ADMIN_UI_CSP);
    expect(ADMIN_UI_CSP).toContain("script-src 'self'");
    expect(ADMIN_UI_CSP).not.toContain('unsafe-inline');
    expect(ADMIN_UI_CSP).toContain("frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // No inline script in the page: every <script> has a src.
    expect(res.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
  });

  it('weighs under 250 KB (JS and CSS, gzip) on first load; charts and markdown load later', async () => {
    const html = (await t.app.inject({ url: '/admin/' })).body;
    const files = [...html.matchAll(/(?:src|href)="\/admin\/(assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(files.some((f) => f?.endsWith('.js'))).toBe(true);
    let bytes = 0;
    for (const file of files) {
      const res = await t.app.inject({ url: `/admin/${file}` });
      expect(res.statusCode).toBe(200);
      bytes += zlib.gzipSync(res.rawPayload).length;
    }
    expect(bytes).toBeLessThan(250 * 1024);
    // React's production build, not its development one.
    const main = files.find((f) => f?.endsWith('.js')) ?? '';
    const js = (await t.app.inject({ url: `/admin/${main}` })).body;
    expect(js).not.toContain('should have a unique');
    expect(js).not.toContain('uPlot');
  });

  it('redirects /admin to /admin/ and answers client routes with the page', async () => {
    const bare = await t.app.inject({ url: '/admin' });
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe('/admin/');
    for (const url of ['/admin/packages', '/admin/customers/c-1', '/admin/packages/acme/lib?q=x']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<div id="root"></div>');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves hashed assets for good, and a missing asset is a 404', async () => {
    const asset = fs.readdirSync(path.join(WEB_DIST, 'assets')).find((f) => f.endsWith('.js'));
    const res = await t.app.inject({ url: `/admin/assets/${asset}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.headers['content-security-policy']).toBe(ADMIN_UI_CSP);
    const missing = await t.app.inject({ url: '/admin/assets/nope-123.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('NOT_FOUND');
  });

  it('sends the copies compressed at build time, never compressing per request', async () => {
    const asset = fs.readdirSync(path.join(WEB_DIST, 'assets')).find((f) => f.endsWith('.js'))!;
    const file = path.join(WEB_DIST, 'assets', asset);
    for (const [accept, encoding, copy] of [
      ['gzip, deflate, br, zstd', 'br', `${file}.br`],
      ['gzip, deflate', 'gzip', `${file}.gz`],
      ['identity', undefined, file],
    ] as const) {
      const res = await t.app.inject({
        url: `/admin/assets/${asset}`,
        headers: { 'accept-encoding': accept },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.rawPayload.equals(fs.readFileSync(copy))).toBe(true);
      expect(res.headers['cache-control']).toContain('immutable');
    }
  });

  it('is not in the OpenAPI document and leaves the API untouched', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    expect(Object.keys(doc.paths).some((p: string) => p.startsWith('/admin'))).toBe(false);
    const api = await t.app.inject({ url: '/api/v1/packages' });
    expect(api.statusCode).toBe(401);
    expect(api.headers['content-security-policy']).toBeUndefined();
  });

  it('says how to build it when web/dist is missing', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-nodist-'));
    const app = Fastify() as unknown as App;
    await app.register(adminUiRoutes, { dist: empty });
    const res = await app.inject({ url: '/admin/packages' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toContain('npm run build:web');
    await app.close();
    fs.rmSync(empty, { recursive: true, force: true });
  });
});

describe('GET /api/v1/session', () => {
  it('names the calling token: root, or a team token and its level', async () => {
    const root = await t.app.inject({ url: '/api/v1/session', headers: t.admin });
    expect(root.json()).toEqual({ kind: 'root', level: 'owner', token_id: null });
    const api = adminApi(t);
    const viewer = await api('POST', '/api/v1/team/tokens', { name: 'v', level: 'viewer' });
    const res = await t.app.inject({
      url: '/api/v1/session',
      headers: { authorization: `Bearer ${viewer.plain_token}` },
    });
    expect(res.json()).toEqual({ kind: 'cma', level: 'viewer', token_id: viewer.token.id });
  });

  it('refuses customer tokens (403) and bad tokens (401)', async () => {
    const customer = await createCustomer(t, 'Session Co');
    const created = await adminApi(t)('POST', `/api/v1/customers/${customer.id}/tokens`, {
      name: 'ci',
    });
    const asCustomer = await t.app.inject({
      url: '/api/v1/session',
      headers: { authorization: `Bearer ${created.plain_token}` },
    });
    expect(asCustomer.statusCode).toBe(403);
    const bad = await t.app.inject({
      url: '/api/v1/session',
      headers: { authorization: 'Bearer nope' },
    });
    expect(bad.statusCode).toBe(401);
  });
});
