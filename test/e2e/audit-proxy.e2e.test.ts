import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unguarded } from '../../src/areas/auth/authorize.js';
import { adminApi, createCustomer } from '../factories.js';
import { FakePackagist } from '../fakes/packagist.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { friendsOfPhpRepository } from '../fixtures/friendsofphp.js';
import { friendsOfPhpSource } from '../../src/areas/advisories/sources/friendsofphp.js';
import { ComposerProject } from './composer-client.js';
import { startServer } from './server.js';
import type { RunningServer } from './server.js';

let s: RunningServer;
const upstream = new FakePackagist({
  'phpmailer/phpmailer': [{ version: 'v6.5.0' }, { version: 'v6.4.1' }],
});
const cleanup: (() => void)[] = [];

beforeAll(async () => {
  await upstream.start();
  s = await startServer({ EDITION: 'pro', PROXY_UPSTREAM_URL: upstream.url });
  // The real FriendsOfPHP database (1,591 advisories) as a git repository, read by the real source.
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-audit-fop-'));
  cleanup.push(() => fs.rmSync(work, { recursive: true, force: true }));
  const repo = friendsOfPhpRepository(work);
  const { deps } = s.runtime.services;
  const advisories = unguarded(s.runtime.services.advisories, 'test sources, background work');
  advisories.useSources(() => [
    friendsOfPhpSource({ ...deps.config.advisories, friendsOfPhpUrl: repo }, deps)!,
  ]);
  const result = await advisories.runImport('default');
  expect(result.sources[0]).toMatchObject({ status: 'imported', problems: [] });
}, 60_000);

afterAll(async () => {
  await s.close();
  await upstream.stop();
  cleanup.forEach((fn) => fn());
});

describe('composer audit of a public package installed through the proxy', () => {
  it('names the FriendsOfPHP CVEs of phpmailer 6.4.1, and passes after the upgrade', async () => {
    const api = adminApi(s);
    const customer = await createCustomer(s, 'Mailer customer');
    const token = await api('POST', `/api/v1/customers/${customer.id}/tokens`, { name: 'ci' });
    const p = new ComposerProject(s.url, token.plain_token);
    cleanup.push(() => p.remove());

    const install = await p.run(['require', 'phpmailer/phpmailer:6.4.1']);
    expect(install.code, install.output).toBe(0);
    expect(install.output).toMatch(/2 security vulnerability advisories affecting 1 package/);

    const audit = await p.run(['audit']);
    expect(audit.code, audit.output).toBe(1);
    expect(audit.output).toContain('CVE-2021-3603');
    expect(audit.output).toContain('CVE-2021-34551');
    expect(audit.output).not.toContain('CVE-2020-36326');

    const vulnerable = await api('GET', '/api/v1/vulnerabilities?package=phpmailer/phpmailer');
    // The proxy keeps 6.4.1 and 6.5.0: CVE-2020-36326 (<6.4.1) affects neither.
    expect(vulnerable.data.map((v: { cve: string }) => v.cve).sort()).toEqual([
      'CVE-2021-34551',
      'CVE-2021-3603',
    ]);
    expect(vulnerable.data[0]).toMatchObject({
      affected_registry_versions: ['v6.4.1'],
      patched_versions: ['v6.5.0'],
      affected_customer_count: 1,
    });

    const upgrade = await p.run(['require', 'phpmailer/phpmailer:^6.5']);
    expect(upgrade.code, upgrade.output).toBe(0);
    expect(p.lockedVersion('phpmailer/phpmailer')).toBe('v6.5.0');
    const clean = await p.run(['audit']);
    expect(clean.code, clean.output).toBe(0);
  });
});
