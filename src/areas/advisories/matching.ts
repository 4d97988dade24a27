import { compareVersions, tryParseConstraint } from '../../composer/semver/index.js';

/** A version the registry holds: synced or uploaded (private), or in the proxy's kept metadata. */
export interface HeldVersion {
  name: string;
  version: string;
  version_normalized: string;
  origin: 'private' | 'proxy';
}

export interface MatchableAdvisory {
  id: string;
  package_name: string;
  affected_versions: string;
}

/** An advisory's affected-versions constraint, or null: an unparsable one matches nothing. */
export const constraintOf = tryParseConstraint;

/** Held versions grouped by package name. */
export function byPackage(versions: readonly HeldVersion[]): Map<string, HeldVersion[]> {
  const out = new Map<string, HeldVersion[]>();
  for (const v of versions) {
    const list = out.get(v.name);
    if (list) list.push(v);
    else out.set(v.name, [v]);
  }
  return out;
}

/** Which held versions each advisory affects, with Composer's semver (docs/advisories.md). */
export function matchAll(
  advisories: readonly MatchableAdvisory[],
  held: Map<string, HeldVersion[]>,
): { advisory: MatchableAdvisory; version: HeldVersion }[] {
  const out: { advisory: MatchableAdvisory; version: HeldVersion }[] = [];
  for (const advisory of advisories) {
    const versions = held.get(advisory.package_name);
    if (!versions) continue;
    const constraint = constraintOf(advisory.affected_versions);
    if (!constraint) continue;
    for (const version of versions) {
      if (constraint.matches(version.version_normalized)) out.push({ advisory, version });
    }
  }
  return out;
}

/**
 * Held versions an advisory does not affect and that are newer than every affected held one
 * (docs/advisories.md `patched_versions`), newest last. Without affected held versions: every
 * unaffected stable one.
 */
export function patchedVersions(
  held: readonly HeldVersion[],
  affected: ReadonlySet<string>,
): string[] {
  const numbered = held.filter((v) => !v.version_normalized.startsWith('dev-'));
  const affectedList = numbered.filter((v) => affected.has(v.version_normalized));
  const newestAffected = affectedList
    .map((v) => v.version_normalized)
    .sort(compareVersions)
    .at(-1);
  const seen = new Set<string>();
  return numbered
    .filter((v) => !affected.has(v.version_normalized))
    .filter((v) => !newestAffected || compareVersions(v.version_normalized, newestAffected) > 0)
    .sort((a, b) => compareVersions(a.version_normalized, b.version_normalized))
    .filter((v) => (seen.has(v.version) ? false : (seen.add(v.version), true)))
    .map((v) => v.version);
}
