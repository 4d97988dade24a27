/**
 * What every advisory source (FriendsOfPHP, OSV, GitHub) hands the advisories service: records in
 * one shape, plus the problems it met. The service merges records about the same vulnerability
 * (shared CVE, GHSA id or alias), stores them and matches them against held versions.
 */
export type AdvisorySourceName = 'friendsofphp' | 'osv' | 'github';

export type AdvisorySeverity = 'low' | 'medium' | 'high' | 'critical';

export interface ImportedAdvisory {
  source: AdvisorySourceName;
  /** The source's own id of the record: FriendsOfPHP's file path, an OSV id, a GHSA id. */
  remoteId: string;
  /** Composer package name, lower case (`vendor/name`). */
  packageName: string;
  title: string;
  link: string | null;
  cve: string | null;
  /** Other ids of the same vulnerability (GHSA-…, CVE-…, OSV ids), without `cve` and `remoteId`. */
  aliases: string[];
  /** A Composer constraint our semver engine parses; alternatives joined by "|". */
  affectedVersions: string;
  reportedAt: Date;
  severity: AdvisorySeverity | null;
  description: string | null;
}

export interface SourceProblem {
  /** The record the problem is about (file path, OSV id, GHSA id), when it is about one. */
  record?: string;
  message: string;
}

export interface SourceResult {
  source: AdvisorySourceName;
  records: ImportedAdvisory[];
  /** Malformed records skipped; the rest of the source still imports. */
  problems: SourceProblem[];
  /**
   * Set when the source could not be read at all (unreachable, bad auth): nothing of it imports
   * and nothing imported from it before is removed.
   */
  failed?: string;
  /**
   * An identity of the source's whole content (git commit, ETag, digest); when it equals the one
   * stored after the last import the service may skip the source entirely.
   */
  fingerprint?: string;
  /** True when the content still has `previousFingerprint`: `records` is then empty and nothing changes. */
  unchanged?: boolean;
}

export interface AdvisorySource {
  readonly name: AdvisorySourceName;
  /** Reads the whole source. Never throws for the source's own faults: they go in `failed`/`problems`. */
  read(signal: AbortSignal, previousFingerprint: string | null): Promise<SourceResult>;
}
