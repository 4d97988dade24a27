import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../../context.js';
import { loadConfig } from '../../../config/index.js';
import { parseConstraint } from '../../../composer/semver/index.js';
import { FakeGitHubAdvisories } from '../../../../test/fakes/github-advisories.js';
import type { FakeVulnerability } from '../../../../test/fakes/github-advisories.js';
import { composerRange, githubSource } from './github.js';

const TOKEN = 'ghp_advisories_test_token';

const advisory = (ghsaId: string, extra: Partial<FakeVulnerability['advisory']> = {}) => ({
  ghsaId,
  summary: `Summary of ${ghsaId}`,
  description: `Details of ${ghsaId}`,
  permalink: `https://github.com/advisories/${ghsaId}`,
  publishedAt: '2023-04-05T06:07:08Z',
  withdrawnAt: null,
  severity: 'MODERATE' as const,
  identifiers: [
    { type: 'GHSA', value: ghsaId },
    { type: 'CVE', value: `CVE-2023-${ghsaId.length}000` },
  ],
  ...extra,
});

const vulnerabilities: FakeVulnerability[] = [
  {
    package: { name: 'symfony/http-kernel' },
    vulnerableVersionRange: '>= 4.0.0, < 4.4.50',
    advisory: advisory('GHSA-aaaa-0001-zzzz'),
  },
  {
    package: { name: 'symfony/http-kernel' },
    vulnerableVersionRange: '>= 5.0.0, < 5.4.20',
    advisory: advisory('GHSA-aaaa-0001-zzzz'),
  },
  {
    package: { name: 'Twig/Twig' },
    vulnerableVersionRange: '= 3.4.0',
    advisory: advisory('GHSA-bbbb-0002-zzzz', { severity: 'CRITICAL', identifiers: [] }),
  },
  {
    package: { name: 'acme/withdrawn' },
    vulnerableVersionRange: '< 1.0.0',
    advisory: advisory('GHSA-cccc-0003-zzzz', { withdrawnAt: '2023-05-01T00:00:00Z' }),
  },
  {
    package: { name: 'guzzlehttp/psr7' },
    vulnerableVersionRange: '<= 1.8.3',
    advisory: advisory('GHSA-dddd-0004-zzzz', { severity: 'LOW' }),
  },
];

let github: FakeGitHubAdvisories;
const signal = new AbortController().signal;
const source = (token = TOKEN) => {
  const config = loadConfig({
    ADMIN_TOKEN: 'x'.repeat(32),
    GITHUB_API_URL: github.url,
    ADVISORIES_GITHUB_TOKEN: token,
  });
  return githubSource(config.advisories, { config } as unknown as Deps)!;
};

beforeAll(async () => {
  github = new FakeGitHubAdvisories(vulnerabilities, TOKEN);
  await github.start();
});
afterAll(async () => github.stop());

describe('the GitHub advisory source', () => {
  it('reads every page, one record per advisory and package, ranges ORed', async () => {
    github.requests.length = 0;
    const result = await source().read(signal, null);
    expect(result.failed).toBeUndefined();
    // 5 vulnerabilities in pages of 2: three requests, each after the previous cursor.
    expect(github.requests.map((r) => r.cursor === null)).toEqual([true, false, false]);
    expect(github.requests.every((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);
    const kernel = result.records.find((r) => r.packageName === 'symfony/http-kernel');
    expect(kernel).toEqual({
      source: 'github',
      remoteId: 'GHSA-aaaa-0001-zzzz',
      packageName: 'symfony/http-kernel',
      title: 'Summary of GHSA-aaaa-0001-zzzz',
      link: 'https://github.com/advisories/GHSA-aaaa-0001-zzzz',
      cve: 'CVE-2023-19000',
      aliases: [],
      affectedVersions: '>=4.0.0,<4.4.50|>=5.0.0,<5.4.20',
      reportedAt: new Date('2023-04-05T06:07:08Z'),
      severity: 'medium',
      description: 'Details of GHSA-aaaa-0001-zzzz',
    });
    const constraint = parseConstraint(kernel!.affectedVersions);
    expect(constraint.matches('4.4.49.0')).toBe(true);
    expect(constraint.matches('5.4.20.0')).toBe(false);
    expect(result.records.find((r) => r.packageName === 'twig/twig')).toMatchObject({
      affectedVersions: '=3.4.0',
      severity: 'critical',
      cve: null,
    });
    expect(result.records.map((r) => r.packageName)).not.toContain('acme/withdrawn');
    expect(result.records).toHaveLength(3);
  });

  it('fails alone on a 502, and the next run imports everything', async () => {
    github.failNext = 1;
    const failed = await source().read(signal, null);
    expect(failed).toMatchObject({ failed: expect.stringMatching(/answered 502/), records: [] });
    const recovered = await source().read(signal, failed.fingerprint ?? null);
    expect(recovered.failed).toBeUndefined();
    expect(recovered.records).toHaveLength(3);
  });

  it('fails on a refused token, with the reason', async () => {
    const result = await source('wrong').read(signal, null);
    expect(result.failed).toMatch(/answered 401/);
  });

  it('turns ranges with spaces into Composer constraints', () => {
    expect(composerRange('>= 1.0, < 1.2.3')).toBe('>=1.0,<1.2.3');
    expect(composerRange('<= 2.0')).toBe('<=2.0');
    expect(composerRange('')).toBeNull();
  });
});
