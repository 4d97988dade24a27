import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { adminApi, createCustomer } from '../../../test/factories.js';
import { CacheGeneration } from '../../infra/cache-generation.js';
import { uploadVersion } from './advisories.test-helpers.js';

/**
 * Issue 13: a new advisory invalidates exactly the affected p2 documents. Composer revalidates
 * with If-Modified-Since only, so the affected document's Last-Modified must move past every
 * value served for it, and every other document must keep its own (and keep answering 304).
 */
describe('an advisory changes exactly its package’s p2 documents', () => {
  let t: TestApp;
  let auth: Record<string, string>;
  let customerId: string;
  const api = (method: string, url: string, body?: unknown) => adminApi(t)(method, url, body);

  beforeAll(async () => {
    t = await createTestApp({ EDITION: 'pro', WORKER: 'off' });
    for (const name of ['acme/hit', 'acme/calm', 'acme/late']) {
      await api('POST', '/api/v1/packages', { name, type: 'artifact' });
      await uploadVersion(t, name, '1.0.0');
    }
    customerId = (await createCustomer(t, 'Audited')).id;
    for (const name of ['acme/hit', 'acme/calm']) {
      await api('POST', `/api/v1/customers/${customerId}/packages`, {
        package: name,
        constraint: '*',
      });
    }
    const token = await api('POST', `/api/v1/customers/${customerId}/tokens`, { name: 't' });
    auth = { authorization: basicAuth(token.plain_token as string) };
  });
  afterAll(async () => t.close());

  const p2 = (name: string, since?: string) =>
    t.app.inject({
      url: `/p2/${name}.json`,
      headers: { ...auth, ...(since ? { 'if-modified-since': since } : {}) },
    });

  it('moves the affected Last-Modified within the same second, and no other', async () => {
    // A second node's view of the same database, following changes by polling only.
    const other = new CacheGeneration(t.db);
    await other.poll();
    const hit = await p2('acme/hit');
    const calm = await p2('acme/calm');
    const [hitLm, calmLm] = [hit.headers['last-modified'], calm.headers['last-modified']] as [
      string,
      string,
    ];
    expect(hit.json()['security-advisories']).toEqual([]);

    const created = await api('POST', '/api/v1/advisories', {
      package: 'acme/hit',
      title: 'Remote code execution',
      affected_versions: '<2.0',
      severity: 'critical',
    });
    expect(created.package).toBe('acme/hit');

    const again = await p2('acme/hit', hitLm);
    expect(again.statusCode).toBe(200);
    expect(again.json()['security-advisories']).toMatchObject([
      { title: 'Remote code execution', affectedVersions: '<2.0' },
    ]);
    const newLm = String(again.headers['last-modified']);
    expect(Date.parse(newLm)).toBeGreaterThan(Date.parse(hitLm));
    expect((await p2('acme/hit', newLm)).statusCode).toBe(304);

    // The untouched document keeps its Last-Modified and still answers 304.
    expect((await p2('acme/calm', calmLm)).statusCode).toBe(304);
    expect((await p2('acme/calm')).headers['last-modified']).toBe(calmLm);

    // The other node hears of exactly that package on its next poll.
    const before = {
      hit: other.packageCurrent('default', 'acme/hit'),
      calm: other.packageCurrent('default', 'acme/calm'),
      tenant: other.current('default'),
    };
    await other.poll();
    expect(other.packageCurrent('default', 'acme/hit')).toBe(before.hit + 1);
    expect(other.packageCurrent('default', 'acme/calm')).toBe(before.calm);
    expect(other.current('default')).toBe(before.tenant);

    // A change of what the token sees (a grant) moves every document past the advisory's stamp.
    await api('POST', `/api/v1/customers/${customerId}/packages`, {
      package: 'acme/late',
      constraint: '*',
    });
    const afterGrant = await p2('acme/hit', newLm);
    expect(afterGrant.statusCode).toBe(200);
    expect(Date.parse(String(afterGrant.headers['last-modified']))).toBeGreaterThan(
      Date.parse(newLm),
    );
    expect((await p2('acme/calm', calmLm)).statusCode).toBe(200);
  });

  it('moves it again on update and delete, each time past the last value', async () => {
    const first = await p2('acme/calm');
    let lm = String(first.headers['last-modified']);
    const created = await api('POST', '/api/v1/advisories', {
      package: 'acme/calm',
      title: 'Flaw',
      affected_versions: '<1.5',
    });
    for (const change of [
      () => api('PATCH', `/api/v1/advisories/${created.id as string}`, { title: 'Worse flaw' }),
      () => api('DELETE', `/api/v1/advisories/${created.id as string}`),
    ]) {
      const before = await p2('acme/calm', lm);
      lm = String(before.headers['last-modified'] ?? lm);
      await change();
      const after = await p2('acme/calm', lm);
      expect(after.statusCode).toBe(200);
      expect(Date.parse(String(after.headers['last-modified']))).toBeGreaterThan(Date.parse(lm));
      lm = String(after.headers['last-modified']);
    }
    expect((await p2('acme/calm')).json()['security-advisories']).toEqual([]);
  });
});
