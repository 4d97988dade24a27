import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudTenant, createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';

describe('GET / on a self-hosted registry', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ WORKER: 'off' });
  });
  afterAll(async () => t.close());

  it('sends a browser to the admin UI with a 302', async () => {
    for (const url of ['/', '/?utm_source=mail']) {
      const res = await t.app.inject({ url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(302);
      expect(res.headers.location, url).toBe('/admin');
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/' });
    expect(head.statusCode).toBe(302);
    expect(head.headers.location).toBe('/admin');
  });

  it('leaves other unknown paths and methods as they were', async () => {
    const unknown = await t.app.inject({ url: '/nothing-here' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'NOT_FOUND' });
    const post = await t.app.inject({ method: 'POST', url: '/' });
    expect(post.statusCode).toBe(404);
  });
});

describe('GET / in the Cloud edition', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ EDITION: 'cloud', WORKER: 'off' });
  });
  afterAll(async () => t.close());

  it('sends a browser on a tenant host to that tenant’s admin UI', async () => {
    const { host } = await cloudTenant(t, 'acme');
    const res = await t.app.inject({ url: '/', headers: { host } });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/admin');
    const unknown = await t.app.inject({ url: '/nothing-here', headers: { host } });
    expect(unknown.statusCode).toBe(404);
  });
});
