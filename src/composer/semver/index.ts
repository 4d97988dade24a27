export {
  InvalidVersionError,
  isDevVersion,
  normalizeBranch,
  normalizeVersion,
  parseStability,
} from './version.js';
export type { Stability } from './version.js';
export { phpVersionCompare } from './compare.js';
export { branchToVersion, tagToVersion } from './refs.js';
export type { VersionPair } from './refs.js';
export {
  InvalidConstraintError,
  MatchAllConstraint,
  MultiConstraint,
  SingleConstraint,
} from './constraint.js';
export type { Constraint, Operator } from './constraint.js';
export { parseConstraint, parseConstraintCached } from './parse-constraint.js';

import { parseConstraintCached } from './parse-constraint.js';
import type { Constraint } from './constraint.js';
import { phpVersionCompare } from './compare.js';
import { normalizeVersion } from './version.js';

/**
 * A stored constraint, parsed; null when it no longer parses (a parser change, a hand-edited row),
 * so the caller's rule decides what an unparsable one means (a grant then admits nothing).
 */
export function tryParseConstraint(text: string): Constraint | null {
  try {
    return parseConstraintCached(text);
  } catch {
    return null;
  }
}

/**
 * Composer's Semver::satisfies: normalizes `version`, parses `constraint`, matches.
 * Throws InvalidVersionError / InvalidConstraintError on invalid input, as Composer does.
 */
export function satisfies(version: string, constraint: string): boolean {
  const normalized = normalizeVersion(version);
  return parseConstraintCached(constraint).matches(normalized);
}

/**
 * Orders two normalized versions: -1, 0 or 1 (ascending). Numbered versions follow PHP's
 * version_compare; `dev-` branches sort below every numbered version (as version_compare
 * ranks "dev" lowest) and among themselves by name, so the order is total.
 */
export function compareVersions(aNormalized: string, bNormalized: string): number {
  const aBranch = aNormalized.startsWith('dev-');
  const bBranch = bNormalized.startsWith('dev-');
  if (aBranch !== bBranch) return aBranch ? -1 : 1;
  if (aBranch) return aNormalized === bNormalized ? 0 : aNormalized < bNormalized ? -1 : 1;
  return phpVersionCompare(aNormalized, bNormalized);
}

/** Sorts normalized versions, newest first by default. Returns a new array. */
export function sortVersions(
  normalized: readonly string[],
  direction: 'asc' | 'desc' = 'desc',
): string[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...normalized].sort((a, b) => sign * compareVersions(a, b));
}
