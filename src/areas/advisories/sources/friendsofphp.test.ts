import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../../context.js';
import { loadConfig } from '../../../config/index.js';
import { parseConstraint } from '../../../composer/semver/index.js';
import { friendsOfPhpSource } from './friendsofphp.js';
import type { AdvisorySource } from './types.js';
import { friendsOfPhpRepository } from '../../../../test/fixtures/friendsofphp.js';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-fop-'));
let repo: string;
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.test', ...args], {
    cwd: repo,
    stdio: 'pipe',
  });

const yamlFiles = (dir: string): string[] =>
  fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /^[^/]+\/[^/]+\/[^/]+\.yaml$/.test(f));

let source: AdvisorySource;
const signal = new AbortController().signal;

beforeAll(() => {
  repo = friendsOfPhpRepository(work);
  const config = loadConfig({ DATA_DIR: path.join(work, 'data'), ADMIN_TOKEN: 'x'.repeat(32) });
  const made = friendsOfPhpSource({ ...config.advisories, friendsOfPhpUrl: repo }, {
    config,
  } as unknown as Deps);
  source = made!;
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe('the FriendsOfPHP source', () => {
  it('is off without ADVISORIES_FRIENDSOFPHP_URL', () => {
    const config = loadConfig({ DATA_DIR: work, ADMIN_TOKEN: 'x'.repeat(32) });
    expect(friendsOfPhpSource(config.advisories, { config } as unknown as Deps)).toBeNull();
  });

  it('reads the whole real database, every record with a constraint our engine parses', async () => {
    const result = await source.read(signal, null);
    expect(result.failed).toBeUndefined();
    expect(result.records.length + result.problems.length).toBe(yamlFiles(repo).length);
    expect(yamlFiles(repo)).toHaveLength(1591);
    expect(result.records.length).toBeGreaterThan(1500);
    for (const record of result.records)
      expect(() => parseConstraint(record.affectedVersions)).not.toThrow();
    const phpmailer = result.records.find(
      (r) => r.remoteId === 'phpmailer/phpmailer/CVE-2021-3603.yaml',
    );
    expect(phpmailer).toEqual({
      source: 'friendsofphp',
      remoteId: 'phpmailer/phpmailer/CVE-2021-3603.yaml',
      packageName: 'phpmailer/phpmailer',
      title: 'Untrusted code may be run from an overridden address validator',
      link: 'https://github.com/PHPMailer/PHPMailer/releases/tag/v6.5.0',
      cve: 'CVE-2021-3603',
      aliases: [],
      affectedVersions: '<6.5.0',
      reportedAt: new Date('2021-06-16T16:20:00Z'),
      severity: null,
      description: null,
    });
    expect(parseConstraint(phpmailer!.affectedVersions).matches('6.4.1.0')).toBe(true);
    expect(result.fingerprint).toMatch(/^[0-9a-f]{40}$/);
  });

  it('costs nothing when the repository has not moved', async () => {
    const first = await source.read(signal, null);
    const again = await source.read(signal, first.fingerprint ?? null);
    expect(again).toMatchObject({ unchanged: true, records: [], fingerprint: first.fingerprint });
  });

  it('gives the same records after a commit that changes nothing (dates included)', async () => {
    const before = await source.read(signal, null);
    git('commit', '-q', '--allow-empty', '-m', 'nothing');
    const after = await source.read(signal, before.fingerprint ?? null);
    expect(after.fingerprint).not.toBe(before.fingerprint);
    expect(after.records).toEqual(before.records);
  });

  it('names a broken file and imports the rest; ANDs a branch and ORs branches', async () => {
    fs.mkdirSync(path.join(repo, 'acme/broken'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'acme/broken/bad.yaml'), 'title: [unclosed\nbranches: {');
    fs.mkdirSync(path.join(repo, 'acme/multi'), { recursive: true });
    fs.writeFileSync(
      path.join(repo, 'acme/multi/GHSA-aaaa-bbbb-cccc.yaml'),
      [
        'title: Two branches',
        'cve: GHSA-aaaa-bbbb-cccc',
        'reference: composer://Acme/Multi',
        'branches:',
        '  1.x: {time: 2024-03-01 10:00:00, versions: [">=1.0.0", "<1.4.2"]}',
        '  2.x: {time: 2024-02-01 09:00:00, versions: [">=2.0.0", "<2.1.0"]}',
        '',
      ].join('\n'),
    );
    git('add', '-A');
    git('commit', '-q', '-m', 'two more');
    const result = await source.read(signal, null);
    expect(result.problems).toContainEqual({
      record: 'acme/broken/bad.yaml',
      message: expect.stringMatching(/not valid YAML/),
    });
    const multi = result.records.find((r) => r.packageName === 'acme/multi');
    expect(multi).toMatchObject({
      affectedVersions: '>=1.0.0,<1.4.2|>=2.0.0,<2.1.0',
      cve: null,
      aliases: ['GHSA-aaaa-bbbb-cccc'],
      reportedAt: new Date('2024-02-01T09:00:00Z'),
    });
    const constraint = parseConstraint(multi!.affectedVersions);
    expect(constraint.matches('1.4.1.0')).toBe(true);
    expect(constraint.matches('1.5.0.0')).toBe(false);
    expect(constraint.matches('2.0.5.0')).toBe(true);
    expect(result.records.length).toBeGreaterThan(1500);
  });

  it('fails alone when the repository cannot be reached', async () => {
    const config = loadConfig({ DATA_DIR: path.join(work, 'other'), ADMIN_TOKEN: 'x'.repeat(32) });
    const missing = friendsOfPhpSource(
      { ...config.advisories, friendsOfPhpUrl: path.join(work, 'nothing-here') },
      { config } as unknown as Deps,
    )!;
    const result = await missing.read(signal, null);
    expect(result.failed).toMatch(/could not be read/);
    expect(result.records).toEqual([]);
  });
});
