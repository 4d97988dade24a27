import type { Env } from './values.js';
/** Settings of the security-advisory import (docs/advisories.md). */
export interface AdvisorySettings {
  /** Minutes between scheduled `advisories.import` tasks; 0 = no schedule (ADVISORIES_SYNC_INTERVAL_MINUTES, default 360). */
  syncIntervalMinutes: number;
  /** Git repository (any URL or path sync accepts) of FriendsOfPHP YAML advisories; null = source off (ADVISORIES_FRIENDSOFPHP_URL). */
  friendsOfPhpUrl: string | null;
  /** URL or directory of OSV JSON records (ecosystem Packagist); null = source off (ADVISORIES_OSV_URL). */
  osvUrl: string | null;
  /** Token for GitHub's advisory database (GraphQL at GITHUB_API_URL); null = source off (ADVISORIES_GITHUB_TOKEN). */
  githubToken: string | null;
}

/** The readers config.ts validates every setting with, so these fail the same way. */
export interface AdvisorySettingReaders {
  integer(env: Env, name: string, fallback: number, min?: number): number;
}

export function advisorySettings(env: Env, read: AdvisorySettingReaders): AdvisorySettings {
  return {
    syncIntervalMinutes: read.integer(env, 'ADVISORIES_SYNC_INTERVAL_MINUTES', 360, 0),
    friendsOfPhpUrl: env.ADVISORIES_FRIENDSOFPHP_URL?.trim() || null,
    osvUrl: env.ADVISORIES_OSV_URL?.trim() || null,
    githubToken: env.ADVISORIES_GITHUB_TOKEN?.trim() || null,
  };
}
