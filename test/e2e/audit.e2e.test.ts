import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../factories.js';
import { uploadVersion } from '../../src/areas/advisories/advisories.test-helpers.js';
import { ComposerProject } from './composer-client.js';
import { startServer } from './server.js';
import type { RunningServer } from './server.js';

let s: RunningServer;
const cleanup: (() => void)[] = [];

async function api(method: 'GET' | 'POST', url: string, payload?: object) {
  const res = await s.app.inject({ method, url, headers: s.admin, payload });
  if (res.statusCode >= 400) throw new Error(`${method} ${url} -> ${res.statusCode} ${res.body}`);
  return res.json();
}

beforeAll(async () => {
  s = await startServer({ EDITION: 'pro' });
  await api('POST', '/api/v1/packages', { name: 'acme/widget', type: 'artifact' });
  for (const v of ['1.0.0', '1.1.0']) await uploadVersion(s, 'acme/widget', v);
});

afterAll(async () => {
  await s.close();
  cleanup.forEach((fn) => fn());
});

describe('composer audit (Composer 2.5.5) against Packyard alone', () => {
  it('reports a vendor advisory on a private package, and passes after the upgrade', async () => {
    const customer = await createCustomer(s, 'Audited customer');
    await api('POST', `/api/v1/customers/${customer.id}/packages`, {
      package: 'acme/widget',
      constraint: '*',
    });
    const token = await api('POST', `/api/v1/customers/${customer.id}/tokens`, {
      name: 'composer',
      scope: 'download',
    });
    await api('POST', '/api/v1/advisories', {
      package: 'acme/widget',
      title: 'Widget leaks secrets',
      severity: 'critical',
      affected_versions: '<1.1.0',
      cve: 'CVE-2026-4242',
      link: 'https://acme.test/sa/4242',
    });
    const p = new ComposerProject(s.url, token.plain_token);
    cleanup.push(() => p.remove());

    const install = await p.run(['require', 'acme/widget:1.0.0']);
    expect(install.code, install.output).toBe(0);
    // The summary audit after the update reports it too.
    expect(install.output).toMatch(/1 security vulnerability advisory affecting 1 package/);

    const audit = await p.run(['audit']);
    expect(audit.code, audit.output).toBe(1);
    expect(audit.output).toContain('CVE-2026-4242');
    expect(audit.output).toContain('acme/widget');
    expect(audit.output).toContain('Widget leaks secrets');

    const upgrade = await p.run(['require', 'acme/widget:^1.1']);
    expect(upgrade.code, upgrade.output).toBe(0);
    expect(p.lockedVersion('acme/widget')).toBe('1.1.0');
    const clean = await p.run(['audit']);
    expect(clean.code, clean.output).toBe(0);
    expect(clean.output).toContain('No security vulnerability advisories found');
  });

  it('tells a customer without a grant nothing about the package', async () => {
    const other = await createCustomer(s, 'Other customer');
    const token = await api('POST', `/api/v1/customers/${other.id}/tokens`, {
      name: 'composer',
      scope: 'download',
    });
    const res = await fetch(`${s.url}/api/security-advisories/`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token.plain_token as string}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'packages[]=acme/widget',
    });
    expect(await res.json()).toEqual({ advisories: {} });
  });
});
