import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../factories.js';
import { basicAuth } from '../helpers.js';
import { buildZip } from '../../src/areas/artifacts/test-zips.js';
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

const FILES: Record<string, string> = {
  'src/Widget.php':
    "<?php\nnamespace Acme\\Widget;\n\nfinal class Widget\n{\n    const VERSION = '1.2.0';\n}\n",
  'README.md': '# Widget\n\nShipped as an uploaded zip.\n',
};

/** The zip a vendor would upload: everything inside one top-level folder, as GitHub zips do. */
function widgetZip(): Buffer {
  const composer = {
    name: 'acme/widget',
    description: 'A widget shipped as an artifact',
    version: '1.2.0',
    type: 'library',
    autoload: { 'psr-4': { 'Acme\\Widget\\': 'src/' } },
  };
  return buildZip([
    { name: 'widget-1.2.0/composer.json', data: JSON.stringify(composer, null, 2) },
    ...Object.entries(FILES).map(([name, data]) => ({ name: `widget-1.2.0/${name}`, data })),
  ]);
}

beforeAll(async () => {
  s = await startServer();
  await api('POST', '/api/v1/packages', { name: 'acme/widget', type: 'artifact' });
});

afterAll(async () => {
  await s.close();
  cleanup.forEach((fn) => fn());
});

describe('an uploaded artifact and the real composer client', () => {
  it('installs exactly the files of the uploaded zip', async () => {
    const customer = await createCustomer(s, 'Artifact customer');
    await api('POST', `/api/v1/customers/${customer.id}/packages`, {
      package: 'acme/widget',
      constraint: '^1.0',
    });
    const dev = await api('POST', `/api/v1/customers/${customer.id}/tokens`, {
      name: 'release pipeline',
      scope: 'developer',
    });

    // Uploaded over real HTTP with the customer's developer token, as a CI job would.
    const res = await fetch(`${s.url}/api/v1/packages/acme/widget/artifacts`, {
      method: 'POST',
      headers: { authorization: basicAuth(dev.plain_token), 'content-type': 'application/zip' },
      body: widgetZip(),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await res.json()).toMatchObject({ version: '1.2.0', version_normalized: '1.2.0.0' });

    const download = await api('POST', `/api/v1/customers/${customer.id}/tokens`, {
      name: 'composer',
      scope: 'download',
    });
    const p = new ComposerProject(s.url, download.plain_token);
    cleanup.push(() => p.remove());
    const run = await p.run(['require', 'acme/widget']);
    expect(run.code, run.output).toBe(0);
    expect(p.lockedVersion('acme/widget')).toBe('1.2.0');
    for (const [file, content] of Object.entries(FILES)) {
      expect(p.installedFile('acme/widget', file)).toBe(content);
    }
    const installed = path.join(p.dir, 'vendor', 'acme', 'widget');
    expect(fs.readdirSync(installed).sort()).toEqual(['README.md', 'composer.json', 'src']);
    expect(JSON.parse(p.installedFile('acme/widget', 'composer.json') ?? '{}').name).toBe(
      'acme/widget',
    );
    // The autoloader knows the package, as for any version.
    const autoload = p.readJson<Record<string, unknown>>('vendor/composer/installed.json');
    expect(JSON.stringify(autoload)).toContain('Acme\\\\Widget\\\\');
  });
});
