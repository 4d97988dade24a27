import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSyncedPackage, adminApi, createCustomer } from '../factories.js';
import { GitFixture } from '../fixtures/git-repo.js';
import { FakePackagist } from '../fakes/packagist.js';
import { ComposerProject } from './composer-client.js';
import { startServer } from './server.js';
import type { RunningServer } from './server.js';

let s: RunningServer;
const upstream = new FakePackagist();
const repo = new GitFixture('acme/app-kit');
const cleanup: (() => void)[] = [];

beforeAll(async () => {
  await upstream.start();
  s = await startServer({ PROXY_UPSTREAM_URL: upstream.url });
  repo.release('1.0.0', { require: { php: '>=8.0', 'monolog/monolog': '^3.0' } });
  await addSyncedPackage(s, 'acme/app-kit', repo.url);
});

afterAll(async () => {
  await s.close();
  await upstream.stop();
  repo.remove();
  cleanup.forEach((fn) => fn());
});

describe('the real Composer client through the proxy, packagist.org disabled', () => {
  it('installs a private package with its public dependencies, then from the lock with the upstream stopped', async () => {
    const api = adminApi(s);
    const customer = await createCustomer(s, 'Proxy customer');
    await api('POST', `/api/v1/customers/${customer.id}/packages`, {
      package: 'acme/app-kit',
      constraint: '*',
    });
    const token = await api('POST', `/api/v1/customers/${customer.id}/tokens`, { name: 'ci' });
    const project = new ComposerProject(s.url, token.plain_token);
    cleanup.push(() => project.remove());

    const first = await project.run(['require', 'acme/app-kit:^1.0']);
    expect(first.code, first.output).toBe(0);
    expect(project.lockedVersion('acme/app-kit')).toBe('1.0.0');
    expect(project.lockedVersion('monolog/monolog')).toBe('3.5.0');
    expect(project.lockedVersion('psr/log')).toBe('3.0.0');
    expect(project.installedFile('psr/log', 'src/Version.php')).toContain('psr/log 3.0.0');
    // The private name was never asked of the upstream.
    expect(upstream.count('/p2/acme/')).toBe(0);
    const lock = project.readJson<{ packages: { name: string; dist: { url: string } }[] }>(
      'composer.lock',
    );
    const monolog = lock.packages.find((p) => p.name === 'monolog/monolog');
    expect(monolog?.dist.url).toMatch(new RegExp(`^${s.url}/dist-proxy/monolog/monolog/`));

    await upstream.stop();
    project.removeVendor();
    const again = await project.run(['install']);
    expect(again.code, again.output).toBe(0);
    expect(project.installedFile('monolog/monolog', 'src/Version.php')).toContain('3.5.0');
  });
});

describe('the real Composer client with PROXY_VISIBILITY=granted', () => {
  let g: RunningServer;
  const granted = new FakePackagist();
  beforeAll(async () => {
    await granted.start();
    g = await startServer({ PROXY_UPSTREAM_URL: granted.url, PROXY_VISIBILITY: 'granted' });
  });
  afterAll(async () => {
    await g.close();
    await granted.stop();
  });

  it('installs a public package only within its grant, and not at all without one', async () => {
    const api = adminApi(g);
    const customer = await createCustomer(g, 'Granted customer');
    await api('POST', `/api/v1/customers/${customer.id}/packages`, {
      package: 'psr/log',
      constraint: '^1.0',
    });
    const token = await api('POST', `/api/v1/customers/${customer.id}/tokens`, { name: 'ci' });
    const project = new ComposerProject(g.url, token.plain_token);
    cleanup.push(() => project.remove());
    const installed = await project.run(['require', 'psr/log:*']);
    expect(installed.code, installed.output).toBe(0);
    // The newest version the grant admits, not the upstream's newest (3.0.0).
    expect(project.lockedVersion('psr/log')).toBe('1.1.4');

    const stranger = await createCustomer(g, 'Stranger');
    const other = await api('POST', `/api/v1/customers/${stranger.id}/tokens`, { name: 'ci' });
    const refused = new ComposerProject(g.url, other.plain_token);
    cleanup.push(() => refused.remove());
    const denied = await refused.run(['require', 'psr/log:*']);
    expect(denied.code).not.toBe(0);
    expect(refused.installedFile('psr/log', 'composer.json')).toBeNull();
  });
});
