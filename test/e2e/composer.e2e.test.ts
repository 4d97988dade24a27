import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitFixture } from '../fixtures/git-repo.js';
import { adminApi, addSyncedMonorepo, addSyncedPackage, createCustomer } from '../factories.js';
import { ComposerProject } from './composer-client.js';
import { startServer } from './server.js';
import type { RunningServer } from './server.js';

let s: RunningServer;
const cleanup: (() => void)[] = [];

const api = (method: string, url: string, payload?: unknown) => adminApi(s)(method, url, payload);

/** A customer granted `grants`, and a token for it. */
async function customerWithToken(
  grants: Record<string, string>,
  token: Record<string, unknown> = {},
) {
  const customer = await createCustomer(s, `Customer ${Math.random().toString(36).slice(2, 8)}`);
  for (const [pkg, constraint] of Object.entries(grants)) {
    await api('POST', `/api/v1/customers/${customer.id}/packages`, { package: pkg, constraint });
  }
  const created = await api('POST', `/api/v1/customers/${customer.id}/tokens`, {
    name: 'ci',
    ...token,
  });
  return { customer, token: created.plain_token as string, tokenId: created.token.id as string };
}

function project(token: string): ComposerProject {
  const p = new ComposerProject(s.url, token);
  cleanup.push(() => p.remove());
  return p;
}

beforeAll(async () => {
  s = await startServer();
  const lib = new GitFixture('acme/lib');
  lib.release('1.0.0').release('1.1.0').release('2.0.0');
  const util = new GitFixture('acme/util');
  util.release('v0.3.0');
  cleanup.push(
    () => lib.remove(),
    () => util.remove(),
  );
  await addSyncedPackage(s, 'acme/lib', lib.url);
  await addSyncedPackage(s, 'acme/util', util.url);
});

afterAll(async () => {
  await s.close();
  cleanup.forEach((fn) => fn());
});

describe('the real composer client', () => {
  it('installs only the major a caret grant allows', async () => {
    const { token } = await customerWithToken({ 'acme/lib': '^1.0' });
    const p = project(token);
    const ok = await p.run(['require', 'acme/lib']);
    expect(ok.code, ok.output).toBe(0);
    expect(p.lockedVersion('acme/lib')).toBe('1.1.0');
    expect(p.installedFile('acme/lib', 'src/Version.php')).toContain("'1.1.0'");

    const denied = await p.run(['require', 'acme/lib:^2.0']);
    expect(denied.code).toBe(2);
    expect(p.lockedVersion('acme/lib')).toBe('1.1.0');

    const stats = await api('GET', '/api/v1/packages/acme/lib');
    const v110 = stats.versions.find((v: { version: string }) => v.version === '1.1.0');
    expect(v110.downloads).toBeGreaterThanOrEqual(1);
  });

  it('still installs from a lock file after the locked version is yanked', async () => {
    const { token } = await customerWithToken({ 'acme/util': '*' });
    const p = project(token);
    expect((await p.run(['require', 'acme/util:^0.3'])).code).toBe(0);
    await api('POST', '/api/v1/packages/acme/util/yank/v0.3.0');
    try {
      fs.rmSync(path.join(p.dir, 'vendor'), { recursive: true, force: true });
      const install = await p.run(['install']);
      expect(install.code, install.output).toBe(0);
      expect(p.installedFile('acme/util', 'composer.json')).toContain('acme/util');
      const update = await p.run(['update']);
      expect(update.code).not.toBe(0);
      // The yanked version is no longer offered, so the locked constraint cannot resolve.
      expect(update.output).toMatch(/could not be resolved/);
      expect(update.output).toMatch(/found acme\/util\[dev-main\]/);
    } finally {
      await api('POST', '/api/v1/packages/acme/util/unyank/v0.3.0');
    }
  });

  it('refuses a suspended customer with a clear error', async () => {
    const { customer, token } = await customerWithToken({ 'acme/lib': '*' });
    await api('POST', `/api/v1/customers/${customer.id}/suspend`, { reason: 'unpaid' });
    const res = await project(token).run(['require', 'acme/lib']);
    expect(res.code).not.toBe(0);
    expect(res.output).toMatch(/403/);
  });

  it('keeps a token with package scopes to its packages', async () => {
    const { token } = await customerWithToken(
      { 'acme/lib': '*', 'acme/util': '*' },
      { package_scopes: ['acme/util'] },
    );
    const p = project(token);
    expect((await p.run(['require', 'acme/util'])).code).toBe(0);
    const other = await p.run(['require', 'acme/lib']);
    expect(other.code).not.toBe(0);
    expect(other.output).toMatch(/could not be found|not find/i);
  });

  it('rejects the old value of a rotated token', async () => {
    const { customer, token, tokenId } = await customerWithToken({ 'acme/lib': '^1.0' });
    const rotated = await api('POST', `/api/v1/customers/${customer.id}/tokens/${tokenId}/rotate`);
    const p = project(token);
    const old = await p.run(['require', 'acme/lib']);
    expect(old.code).not.toBe(0);
    expect(old.output).toMatch(/401|authentication/i);
    p.setToken(rotated.plain_token);
    const fresh = await p.run(['require', 'acme/lib']);
    expect(fresh.code, fresh.output).toBe(0);
  });
});

describe('monorepo children with the real composer client', () => {
  it('installs two children of one repository, each with only its folder', async () => {
    const mono = new GitFixture('acme/mono');
    cleanup.push(() => mono.remove());
    mono.write('README.md', '# Acme monorepo\n');
    mono.child('packages/a', 'acme/a', '1.0.0').child('packages/b', 'acme/b', '1.0.0');
    mono.commit('first').tag('1.0.0');
    mono.child('packages/b', 'acme/b', '1.1.0').commit('b moves on').tag('1.1.0');
    const parent = await addSyncedMonorepo(s, 'acme/mono', mono.url, ['packages/*']);
    expect(parent.sync_status, parent.sync_error).toBe('ok');

    const { token } = await customerWithToken({ 'acme/a': '*', 'acme/b': '^1.0' });
    const p = project(token);
    const res = await p.run(['require', 'acme/a', 'acme/b']);
    expect(res.code, res.output).toBe(0);
    expect(p.lockedVersion('acme/a')).toBe('1.1.0');
    expect(p.lockedVersion('acme/b')).toBe('1.1.0');
    expect(p.installedFile('acme/a', 'src/Version.php')).toContain("'1.0.0'");
    expect(p.installedFile('acme/b', 'src/Version.php')).toContain("'1.1.0'");
    expect(p.installedFile('acme/a', 'composer.json')).toContain('"acme/a"');
    expect(p.installedFile('acme/a', 'README.md')).toBeNull();
    expect(p.installedFile('acme/a', 'packages/b/composer.json')).toBeNull();
    expect(fs.readdirSync(path.join(p.dir, 'vendor', 'acme', 'b')).sort()).toEqual([
      'composer.json',
      'src',
    ]);

    // The parent itself has no root composer.json, so it is nothing to install.
    const parentOnly = await p.run(['require', 'acme/mono']);
    expect(parentOnly.code).not.toBe(0);
  });
});
