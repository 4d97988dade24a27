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
  const a = numbersOf(aNormalized);
  const b = a && numbersOf(bNormalized);
  return a && b ? compareNumbers(a, b) : phpVersionCompare(aNormalized, bNormalized);
}

/** Only digits and single dots between them: most tags' normalized form (`1.2.0.0`). */
const PLAIN = /^\d+(?:\.\d+)*$/;
/** Plain normalized versions and their numbers, as version_compare reads them (see numbersOf). */
const plainNumbers = new Map<string, readonly string[] | null>();

/**
 * The numbers of a plain version as PHP's version_compare reads them (strtol: no leading
 * zeros, clamped to LONG_MAX), or null for any other form. Kept: sorting a package's 1,000
 * versions compares each about ten times, and version_compare's own reading is slow.
 */
function numbersOf(normalized: string): readonly string[] | null {
  let numbers = plainNumbers.get(normalized);
  if (numbers === undefined) {
    numbers = PLAIN.test(normalized) ? normalized.split('.').map(decimalOf) : null;
    if (plainNumbers.size >= 200_000) plainNumbers.clear();
    plainNumbers.set(normalized, numbers);
  }
  return numbers;
}

const LONG_MAX = '9223372036854775807';

function decimalOf(digits: string): string {
  const d = digits.replace(/^0+(?=\d)/, '');
  return d.length > LONG_MAX.length || (d.length === LONG_MAX.length && d > LONG_MAX)
    ? LONG_MAX
    : d;
}

/**
 * version_compare of two plain versions (canonicalizing leaves them as they are): the first
 * number that differs decides, else the one with more numbers is greater.
 */
function compareNumbers(a: readonly string[], b: readonly string[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (x.length !== y.length) return x.length < y.length ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** Sorts normalized versions, newest first by default. Returns a new array. */
export function sortVersions(
  normalized: readonly string[],
  direction: 'asc' | 'desc' = 'desc',
): string[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...normalized].sort((a, b) => sign * compareVersions(a, b));
}
