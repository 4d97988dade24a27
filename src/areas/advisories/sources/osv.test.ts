import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../../context.js';
import { loadConfig } from '../../../config/index.js';
import { parseConstraint } from '../../../composer/semver/index.js';
import { buildZip } from '../../artifacts/test-zips.js';
import { osvSource } from './osv.js';

const GHSA = {
  id: 'GHSA-6xv3-xxxx-yyyy',
  summary: 'Guzzle leaks cookies',
  details: 'Cookies are sent to other hosts after a redirect.',
  aliases: ['CVE-2022-29248'],
  published: '2022-05-25T19:05:00Z',
  database_specific: { severity: 'HIGH' },
  references: [{ type: 'ADVISORY', url: 'https://github.com/advisories/GHSA-6xv3-xxxx-yyyy' }],
  affected: [
    {
      package: { ecosystem: 'Packagist', name: 'guzzlehttp/guzzle' },
      ranges: [
        {
          type: 'ECOSYSTEM',
          events: [
            { introduced: '0' },
            { fixed: '6.5.6' },
            { introduced: '7.0.0' },
            { fixed: '7.4.3' },
          ],
        },
      ],
    },
    { package: { ecosystem: 'npm', name: 'not-ours' }, ranges: [] },
  ],
};
const GIT_ONLY = {
  id: 'PKSA-git-only',
  summary: 'Only a git range',
  published: '2023-01-01T00:00:00Z',
  affected: [
    {
      package: { ecosystem: 'Packagist', name: 'acme/git' },
      ranges: [{ type: 'GIT', events: [{ introduced: 'abc' }] }],
    },
  ],
};
const LAST_AFFECTED = {
  id: 'PKSA-last',
  summary: 'Up to and including 2.1.0',
  modified: '2024-02-02T00:00:00Z',
  affected: [
    {
      package: { ecosystem: 'Packagist', name: 'Acme/Last' },
      ranges: [
        { type: 'ECOSYSTEM', events: [{ introduced: '2.0.0' }, { last_affected: '2.1.0' }] },
      ],
    },
  ],
};

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-osv-'));
let server: http.Server;
let base = '';
let failNext = 0;
const config = loadConfig({ DATA_DIR: work, ADMIN_TOKEN: 'x'.repeat(32) });
const source = (url: string) =>
  osvSource({ ...config.advisories, osvUrl: url }, { config } as unknown as Deps)!;
const signal = new AbortController().signal;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (failNext > 0) {
      failNext--;
      res.writeHead(502).end('bad gateway');
      return;
    }
    if (req.url === '/all.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify([GHSA, GIT_ONLY, LAST_AFFECTED]));
    } else if (req.url === '/all.zip') {
      res.writeHead(200, { 'content-type': 'application/zip' });
      res.end(
        buildZip([
          { name: `${GHSA.id}.json`, data: JSON.stringify(GHSA) },
          { name: 'broken.json', data: '{"id": ' },
        ]),
      );
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(work, { recursive: true, force: true });
});

describe('the OSV source', () => {
  it('turns Packagist ECOSYSTEM ranges into Composer constraints, one record per package', async () => {
    const result = await source(`${base}/all.json`).read(signal, null);
    expect(result.failed).toBeUndefined();
    const guzzle = result.records.find((r) => r.packageName === 'guzzlehttp/guzzle');
    expect(guzzle).toEqual({
      source: 'osv',
      remoteId: 'GHSA-6xv3-xxxx-yyyy',
      packageName: 'guzzlehttp/guzzle',
      title: 'Guzzle leaks cookies',
      link: 'https://github.com/advisories/GHSA-6xv3-xxxx-yyyy',
      cve: 'CVE-2022-29248',
      aliases: [],
      affectedVersions: '<6.5.6|>=7.0.0,<7.4.3',
      reportedAt: new Date('2022-05-25T19:05:00Z'),
      severity: 'high',
      description: 'Cookies are sent to other hosts after a redirect.',
    });
    const constraint = parseConstraint(guzzle!.affectedVersions);
    expect(constraint.matches('6.5.5.0')).toBe(true);
    expect(constraint.matches('6.5.6.0')).toBe(false);
    expect(constraint.matches('7.4.2.0')).toBe(true);
    expect(constraint.matches('7.4.3.0')).toBe(false);
    expect(result.records.find((r) => r.packageName === 'acme/last')).toMatchObject({
      affectedVersions: '>=2.0.0,<=2.1.0',
      reportedAt: new Date('2024-02-02T00:00:00Z'),
      severity: null,
    });
    // An unknown range type is named; the record gives nothing else, so it is left out.
    expect(result.problems).toEqual([
      { record: 'PKSA-git-only', message: expect.stringMatching(/GIT range for acme\/git/) },
      { record: 'PKSA-git-only', message: 'gives no affected versions of acme/git' },
    ]);
    expect(result.records.map((r) => r.packageName).sort()).toEqual([
      'acme/last',
      'guzzlehttp/guzzle',
    ]);
  });

  it("reads osv.dev's zip export, naming a broken file", async () => {
    const result = await source(`${base}/all.zip`).read(signal, null);
    expect(result.records.map((r) => r.remoteId)).toEqual(['GHSA-6xv3-xxxx-yyyy']);
    expect(result.problems).toEqual([{ record: 'broken.json', message: 'is not JSON' }]);
  });

  it('reads a directory of records, and costs nothing when unchanged', async () => {
    const dir = path.join(work, 'records');
    fs.mkdirSync(path.join(dir, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'a.json'), JSON.stringify(GHSA));
    fs.writeFileSync(path.join(dir, 'sub', 'b.json'), JSON.stringify(LAST_AFFECTED));
    fs.writeFileSync(path.join(dir, 'README.md'), 'not a record');
    const first = await source(dir).read(signal, null);
    expect(first.records).toHaveLength(2);
    const again = await source(dir).read(signal, first.fingerprint ?? null);
    expect(again).toMatchObject({ unchanged: true, records: [] });
  });

  it('fails alone on a 502 and imports again once the server recovers', async () => {
    failNext = 1;
    const failed = await source(`${base}/all.json`).read(signal, null);
    expect(failed.failed).toMatch(/answered 502/);
    expect(failed.records).toEqual([]);
    const recovered = await source(`${base}/all.json`).read(signal, null);
    expect(recovered.failed).toBeUndefined();
    expect(recovered.records.length).toBe(2);
  });
});
