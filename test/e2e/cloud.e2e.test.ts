import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageZip } from '../../src/areas/artifacts/test-zips.js';
import { ComposerProject } from './composer-client.js';
import { startServer } from './server.js';
import type { RunningServer } from './server.js';

const PLATFORM = 'platform-token-0123456789abcdef';
// curl, and so Composer, resolves every *.localhost name to the loopback address.
const BASE_DOMAIN = 'packyard.localhost';

let s: RunningServer;
const cleanup: (() => void)[] = [];

interface Vendor {
  origin: string;
  host: string;
  downloadToken: string;
}

/** A tenant with the package acme/lib 1.0.0 whose file says `marker`, and a customer's token. */
async function vendor(subdomain: string, marker: string): Promise<Vendor> {
  const port = new URL(s.url).port;
  const host = `${subdomain}.${BASE_DOMAIN}:${port}`;
  const created = await s.app.inject({
    method: 'POST',
    url: '/api/v1/tenants',
    headers: { host: BASE_DOMAIN, authorization: `Bearer ${PLATFORM}` },
    payload: { name: subdomain, subdomain },
  });
  expect(created.statusCode, created.body).toBe(201);
  const owner = { host, authorization: `Bearer ${created.json().owner_token as string}` };
  const api = async (url: string, payload: unknown, type = 'application/json') => {
    const res = await s.app.inject({
      method: 'POST',
      url: `/api/v1${url}`,
      headers: { ...owner, 'content-type': type },
      payload: payload as string,
    });
    if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res.json<Record<string, unknown>>();
  };
  // Deliberately the same package name, customer name and e-mail in every tenant.
  await api('/packages', { name: 'acme/lib', type: 'artifact' });
  await api(
    '/packages/acme/lib/artifacts?version=1.0.0',
    packageZip(
      { name: 'acme/lib', autoload: { 'psr-4': { 'Acme\\Lib\\': 'src/' } } },
      { 'src/Marker.php': `<?php // ${marker}\n` },
    ),
    'application/zip',
  );
  const customer = await api('/customers', { name: 'Same', email: 'same@example.test' });
  await api(`/customers/${String(customer.id)}/packages`, { package: 'acme/lib', constraint: '*' });
  const token = await api(`/customers/${String(customer.id)}/tokens`, { name: 'composer' });
  return { origin: `http://${host}`, host, downloadToken: String(token.plain_token) };
}

beforeAll(async () => {
  s = await startServer({ EDITION: 'cloud', BASE_DOMAIN, PLATFORM_ADMIN_TOKEN: PLATFORM });
});

afterAll(async () => {
  await s.close();
  cleanup.forEach((fn) => fn());
});

describe('the real Composer client against two tenants of one deployment', () => {
  it("installs each tenant's own package from its own host, and nothing across hosts", async () => {
    const north = await vendor('north', 'from north');
    const south = await vendor('south', 'from south');
    for (const [v, marker] of [
      [north, 'from north'],
      [south, 'from south'],
    ] as const) {
      const p = new ComposerProject(v.origin, v.downloadToken);
      cleanup.push(() => p.remove());
      const run = await p.run(['require', 'acme/lib']);
      expect(run.code, run.output).toBe(0);
      const installed = fs.readFileSync(path.join(p.dir, 'vendor/acme/lib/src/Marker.php'), 'utf8');
      expect(installed).toContain(marker);
      const lock = p.readJson<{ packages: { dist: { url: string } }[] }>('composer.lock');
      expect(lock.packages[0]?.dist.url.startsWith(`${v.origin}/dist/`)).toBe(true);
    }
    // North's token on south's host: Composer is refused, and installs nothing.
    const crossed = new ComposerProject(south.origin, north.downloadToken);
    cleanup.push(() => crossed.remove());
    const refused = await crossed.run(['require', 'acme/lib']);
    expect(refused.code).not.toBe(0);
    expect(fs.existsSync(path.join(crossed.dir, 'vendor/acme/lib'))).toBe(false);
  });
});
