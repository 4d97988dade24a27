import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unguarded } from '../auth/authorize.js';
import { proxiedApp } from '../../../test/proxy-helpers.js';
import type { Proxied } from '../../../test/proxy-helpers.js';
import { waitFor } from '../../../test/helpers.js';
import type { DomainEvent } from '../../infra/events.js';
import type { ImportedAdvisory } from './sources/types.js';

let p: Proxied;
const events: DomainEvent[] = [];

const monologFlaw: ImportedAdvisory = {
  source: 'friendsofphp',
  remoteId: 'monolog/monolog/CVE-2026-7777.yaml',
  packageName: 'monolog/monolog',
  title: 'Log injection',
  link: 'https://fop.test/monolog',
  cve: 'CVE-2026-7777',
  aliases: [],
  affectedVersions: '>=2.0.0,<2.9.3',
  reportedAt: new Date('2026-03-01T10:00:00Z'),
  severity: null,
  description: null,
};

beforeAll(async () => {
  p = await proxiedApp({ EDITION: 'pro' });
  p.t.runtime.services.deps.events.subscribe((e) => events.push(e));
  unguarded(p.t.runtime.services.advisories, 'test sources').useSources(() => [
    {
      name: 'friendsofphp',
      read: async () => ({ source: 'friendsofphp', records: [monologFlaw], problems: [] }),
    },
  ]);
});

afterAll(async () => p.close());

describe('advisories about public packages the proxy keeps', () => {
  it('matches versions fetched through the proxy, alerts, and serves them in the public p2', async () => {
    const c = await p.customer();
    await unguarded(p.t.runtime.services.advisories, 'background work').runImport('default');
    const doc = await p.get('/p2/monolog/monolog.json', c.auth);
    expect(doc.statusCode).toBe(200);
    const v = await waitFor(
      () => p.api('GET', '/api/v1/vulnerabilities?package=monolog/monolog'),
      (r: { data: unknown[] }) => r.data.length === 1,
    );
    expect(v.data[0]).toMatchObject({
      cve: 'CVE-2026-7777',
      affected_registry_versions: ['2.0.0', '2.9.2'],
      patched_versions: ['3.0.0', '3.5.0'],
    });
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'vulnerability.detected',
        package: 'monolog/monolog',
        versions: ['2.0.0', '2.9.2'],
      }),
    );
    const alerts = await p.api('GET', '/api/v1/proxy/alerts');
    expect(alerts.data).toContainEqual(
      expect.objectContaining({
        type: 'advisory',
        package: 'monolog/monolog',
        message: expect.stringContaining('CVE-2026-7777'),
      }),
    );
    const again = await p.get('/p2/monolog/monolog.json', c.auth);
    expect(again.json()['security-advisories']).toEqual([
      expect.objectContaining({ cve: 'CVE-2026-7777', affectedVersions: '>=2.0.0,<2.9.3' }),
    ]);
    const all = await p.get('/security-advisories.json', c.auth);
    expect(Object.keys(all.json().advisories)).toEqual(['monolog/monolog']);
  });
});
