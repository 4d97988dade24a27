import crypto from 'node:crypto';
import type { Deps } from '../../../context.js';
import type { AdvisorySettings } from '../../../config/advisories.js';
import type { AdvisorySeverity, AdvisorySource, ImportedAdvisory, SourceResult } from './types.js';

const QUERY = `query($cursor: String) {
  securityVulnerabilities(ecosystem: COMPOSER, first: 100, after: $cursor) {
    pageInfo { hasNextPage endCursor }
    nodes {
      package { name }
      vulnerableVersionRange
      advisory {
        ghsaId summary description permalink publishedAt withdrawnAt severity
        identifiers { type value }
      }
    }
  }
}`;

/** More pages than GitHub's whole Composer database would need; a loop guard. */
const MAX_PAGES = 1000;

interface Vulnerability {
  package?: { name?: string };
  vulnerableVersionRange?: string;
  advisory?: {
    ghsaId?: string;
    summary?: string;
    description?: string | null;
    permalink?: string;
    publishedAt?: string;
    withdrawnAt?: string | null;
    severity?: string;
    identifiers?: { type?: string; value?: string }[];
  };
}

interface Page {
  data?: {
    securityVulnerabilities?: {
      pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
      nodes?: Vulnerability[];
    };
  };
  errors?: { message?: string }[];
}

const SEVERITY: Record<string, AdvisorySeverity> = {
  LOW: 'low',
  MODERATE: 'medium',
  HIGH: 'high',
  CRITICAL: 'critical',
};

/**
 * The GitHub advisory database (docs/advisories.md) through its GraphQL API at GITHUB_API_URL
 * (`<GITHUB_API_URL>/graphql`), with ADVISORIES_GITHUB_TOKEN: every page of
 * `securityVulnerabilities(ecosystem: COMPOSER)`. The vulnerabilities of one advisory and package
 * (one per affected range) become one record, their ranges ORed. Withdrawn advisories are left out.
 */
export function githubSource(settings: AdvisorySettings, deps: Deps): AdvisorySource | null {
  const token = settings.githubToken;
  if (!token) return null;
  const endpoint = `${deps.config.github.apiUrl.replace(/\/$/, '')}/graphql`;
  const timeoutMs = deps.config.hostApiTimeoutMs;
  return {
    name: 'github',
    async read(signal): Promise<SourceResult> {
      const result: SourceResult = { source: 'github', records: [], problems: [] };
      const nodes: Vulnerability[] = [];
      let cursor: string | null = null;
      try {
        for (let page = 0; page < MAX_PAGES; page++) {
          const res = await fetch(endpoint, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${token}`,
              'content-type': 'application/json',
              'user-agent': 'Packyard',
            },
            body: JSON.stringify({ query: QUERY, variables: { cursor } }),
            signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
          });
          if (!res.ok) throw new Error(`answered ${res.status}`);
          const body = (await res.json()) as Page;
          if (body.errors?.length) {
            throw new Error(`answered errors: ${body.errors.map((e) => e.message).join('; ')}`);
          }
          const list = body.data?.securityVulnerabilities;
          if (!list) throw new Error('answered no securityVulnerabilities');
          nodes.push(...(list.nodes ?? []));
          if (!list.pageInfo?.hasNextPage) break;
          cursor = list.pageInfo.endCursor ?? null;
          if (!cursor) throw new Error('answered a next page without a cursor');
        }
      } catch (err) {
        return { ...result, failed: `GitHub's advisory API ${(err as Error).message}` };
      }
      const grouped = new Map<string, ImportedAdvisory>();
      for (const node of nodes) {
        const advisory = node.advisory;
        const id = advisory?.ghsaId;
        const name = node.package?.name?.toLowerCase();
        const range = node.vulnerableVersionRange
          ? composerRange(node.vulnerableVersionRange)
          : null;
        if (!id || !name || !advisory) {
          result.problems.push({
            record: id,
            message: 'a vulnerability without advisory or package',
          });
          continue;
        }
        if (advisory.withdrawnAt) continue;
        if (!range) {
          result.problems.push({ record: id, message: `no version range for ${name}` });
          continue;
        }
        const key = `${id}\n${name}`;
        const existing = grouped.get(key);
        if (existing) {
          existing.affectedVersions += `|${range}`;
          continue;
        }
        const ids = (advisory.identifiers ?? [])
          .map((i) => i.value)
          .filter((v): v is string => typeof v === 'string');
        const cve = ids.find((v) => /^CVE-\d{4}-\d+$/i.test(v))?.toUpperCase() ?? null;
        grouped.set(key, {
          source: 'github',
          remoteId: id,
          packageName: name,
          title: advisory.summary?.trim() || id,
          link: advisory.permalink ?? `https://github.com/advisories/${id}`,
          cve,
          aliases: ids.filter((v) => v !== id && v.toUpperCase() !== cve),
          affectedVersions: range,
          reportedAt: new Date(advisory.publishedAt ?? Number.NaN),
          severity: SEVERITY[advisory.severity ?? ''] ?? null,
          description: advisory.description?.trim() || null,
        });
      }
      result.records = [...grouped.values()];
      result.fingerprint = crypto
        .createHash('sha256')
        .update(JSON.stringify(result.records))
        .digest('hex');
      return result;
    },
  };
}

/** GitHub's `>= 1.0, < 1.2.3` (`= 1.0` for one version) as a Composer constraint. */
export function composerRange(range: string): string | null {
  const parts = range
    .split(',')
    .map((p) => p.trim().replace(/^(>=|<=|>|<|=)\s*/, '$1'))
    .filter(Boolean);
  return parts.length > 0 ? parts.join(',') : null;
}
