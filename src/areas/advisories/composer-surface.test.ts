import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unguarded } from '../auth/authorize.js';
import { createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { createCustomer } from '../../../test/factories.js';
import { uploadVersion } from './advisories.test-helpers.js';
import type { AdvisorySource, ImportedAdvisory } from './sources/types.js';

let t: TestApp;
let seeing: Record<string, string>;
let scoped: Record<string, string>;

async function api(method: string, url: string, payload?: unknown) {
  const res = await t.app.inject({
    method: method as 'GET',
    url: `/api/v1${url}`,
    headers: t.admin,
    payload: payload as object,
  });
  if (res.statusCode >= 400) throw new Error(`${method} ${url} -> ${res.statusCode} ${res.body}`);
  return res.statusCode === 204 ? null : res.json();
}

async function tokenFor(grants: string[], packageScopes: string[] = []) {
  const customer = await createCustomer(t, `C${Math.random().toString(16).slice(2, 8)}`);
  for (const pkg of grants) {
    await api('POST', `/customers/${customer.id}/packages`, { package: pkg, constraint: '*' });
  }
  const created = await api('POST', `/customers/${customer.id}/tokens`, {
    name: 'ci',
    scope: 'download',
    package_scopes: packageScopes,
  });
  return { authorization: `Bearer ${created.plain_token as string}` };
}

const publicRecord: ImportedAdvisory = {
  source: 'osv',
  remoteId: 'GHSA-aaaa-bbbb-cccc',
  packageName: 'monolog/monolog',
  title: 'Public flaw',
  link: 'https://osv.test/GHSA-aaaa-bbbb-cccc',
  cve: 'CVE-2020-0001',
  aliases: [],
  affectedVersions: '<1.2',
  reportedAt: new Date('2020-01-02T03:04:05Z'),
  severity: 'medium',
  description: null,
};

const form = (names: string[]) => names.map((n) => `packages[]=${encodeURIComponent(n)}`).join('&');

function askPost(headers: Record<string, string>, names: string[]) {
  return t.app.inject({
    method: 'POST',
    url: '/api/security-advisories/',
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form(names),
  });
}

beforeAll(async () => {
  t = await createTestApp({ EDITION: 'pro' });
  for (const name of ['acme/widget', 'acme/secret']) {
    await api('POST', '/packages', { name, type: 'artifact' });
    await uploadVersion(t, name, '1.0.0');
    await api('POST', '/advisories', {
      package: name,
      title: `Flaw in ${name}`,
      affected_versions: '<2.0',
      cve: name === 'acme/secret' ? 'CVE-2026-9999' : 'CVE-2026-1111',
    });
  }
  const source: AdvisorySource = {
    name: 'osv',
    read: async () => ({ source: 'osv', records: [publicRecord], problems: [] }),
  };
  const advisories = unguarded(t.runtime.services.advisories, 'test sources, background work');
  advisories.useSources(() => [source]);
  await advisories.runImport('default');
  seeing = await tokenFor(['acme/widget']);
  scoped = await tokenFor(['acme/widget', 'acme/secret'], ['other/*']);
});

afterAll(async () => t.close());

const names = ['acme/widget', 'acme/secret', 'unknown/thing', 'monolog/monolog'];

describe('advisories on the Composer surface', () => {
  it('announces the advisory API with metadata in packages.json', async () => {
    const res = await t.app.inject({ url: '/packages.json', headers: seeing });
    expect(res.json()['security-advisories']).toEqual({
      metadata: true,
      'api-url': 'http://packyard.test/api/security-advisories/',
    });
  });

  it('answers Composer 2.5.5 form posts and GETs with the visible names only', async () => {
    for (const res of [
      await askPost(seeing, names),
      await t.app.inject({ url: `/api/security-advisories/?${form(names)}`, headers: seeing }),
    ]) {
      expect(res.statusCode, res.body).toBe(200);
      const { advisories } = res.json();
      expect(Object.keys(advisories)).toEqual(['acme/widget', 'monolog/monolog']);
      expect(advisories['acme/widget']).toEqual([
        {
          advisoryId: expect.stringMatching(/^PKYD-\d{4}-\d{4}$/),
          packageName: 'acme/widget',
          remoteId: expect.stringMatching(/^PKYD-/),
          title: 'Flaw in acme/widget',
          link: null,
          cve: 'CVE-2026-1111',
          affectedVersions: '<2.0',
          reportedAt: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
          composerRepository: 'http://packyard.test',
          sources: [{ name: 'vendor', remoteId: expect.stringMatching(/^PKYD-/) }],
          severity: null,
        },
      ]);
      expect(advisories['monolog/monolog'][0]).toMatchObject({
        remoteId: 'GHSA-aaaa-bbbb-cccc',
        cve: 'CVE-2020-0001',
        reportedAt: '2020-01-02 03:04:05',
        sources: [{ name: 'osv', remoteId: 'GHSA-aaaa-bbbb-cccc' }],
        severity: 'medium',
      });
    }
  });

  it('never reveals a private package the token cannot see, on any route', async () => {
    const all = await t.app.inject({ url: '/security-advisories.json', headers: seeing });
    expect(Object.keys(all.json().advisories)).toEqual(['acme/widget']);
    expect(all.body).not.toContain('secret');
    const one = await t.app.inject({
      url: '/api/security-advisories/acme/secret.json',
      headers: seeing,
    });
    expect(one.statusCode).toBe(403);
    expect(one.body).not.toContain('CVE-2026-9999');
    const unknown = await t.app.inject({
      url: '/api/security-advisories/unknown/thing.json',
      headers: seeing,
    });
    expect(unknown.statusCode).toBe(404);
    const mine = await t.app.inject({
      url: '/api/security-advisories/acme/widget.json',
      headers: seeing,
    });
    expect(Object.keys(mine.json().advisories)).toEqual(['acme/widget']);
    const p2 = await t.app.inject({ url: '/p2/acme/secret.json', headers: seeing });
    expect(p2.statusCode).toBe(403);
    expect(p2.body).not.toContain('CVE-2026-9999');
  });

  it("applies the token's package scopes", async () => {
    const res = await askPost(scoped, names);
    expect(res.json()).toEqual({ advisories: {} });
    const one = await t.app.inject({
      url: '/api/security-advisories/acme/widget.json',
      headers: scoped,
    });
    expect(one.statusCode).toBe(403);
    const all = await t.app.inject({ url: '/security-advisories.json', headers: scoped });
    expect(all.json()).toEqual({ advisories: {} });
  });

  it('carries advisories in p2 documents, and a new one reaches a cached document', async () => {
    const first = await t.app.inject({ url: '/p2/acme/widget.json', headers: seeing });
    expect(first.json()['security-advisories']).toHaveLength(1);
    const lastModified = first.headers['last-modified'] as string;
    await api('POST', '/advisories', {
      package: 'acme/widget',
      title: 'Second flaw',
      affected_versions: '<1.0',
    });
    const again = await t.app.inject({
      url: '/p2/acme/widget.json',
      headers: { ...seeing, 'if-modified-since': lastModified },
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()['security-advisories'].map((a: { title: string }) => a.title)).toEqual([
      'Flaw in acme/widget',
      'Second flaw',
    ]);
  });

  it('refuses bad credentials and bad updatedSince', async () => {
    const res = await askPost({ authorization: 'Bearer nope' }, names);
    expect(res.statusCode).toBe(401);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/security-advisories/',
      headers: { ...seeing, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `${form(names)}&updatedSince=yesterday`,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION_ERROR');
    const later = await t.app.inject({
      method: 'POST',
      url: '/api/security-advisories/',
      headers: { ...seeing, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `${form(names)}&updatedSince=${Math.floor(Date.now() / 1000) + 3600}`,
    });
    expect(later.json()).toEqual({ advisories: {} });
  });
});

describe('a deleted private package', () => {
  it('takes its vendor advisories off every route (its name may become public)', async () => {
    await api('POST', '/packages', { name: 'acme/gone', type: 'artifact' });
    await api('POST', '/advisories', {
      package: 'acme/gone',
      title: 'Flaw in a package about to go',
      affected_versions: '*',
    });
    const anyone = await tokenFor([]);
    await api('DELETE', '/packages/acme/gone');
    const res = await askPost(anyone, ['acme/gone']);
    expect(res.json()).toEqual({ advisories: {} });
    const all = await t.app.inject({ url: '/security-advisories.json', headers: anyone });
    expect(all.body).not.toContain('acme/gone');
  });
});
