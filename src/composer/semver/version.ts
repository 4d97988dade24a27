/**
 * Composer's version rules, ported from composer/semver's VersionParser (3.3).
 *
 * The regular expressions are PCRE ones translated to JavaScript: PCRE's `\s` is
 * ASCII-only, its `.` only refuses LF, and its `$` also matches before a final LF,
 * so those are spelled out below rather than using the JavaScript equivalents.
 */

import { parseConstraint } from './constraint.js';

export type Stability = 'stable' | 'RC' | 'beta' | 'alpha' | 'dev';

export class InvalidVersionError extends Error {
  override name = 'InvalidVersionError';
}

/** Characters PCRE's `\s` matches (without UTF mode). */
export const WS = '\\t\\n\\v\\f\\r ';
/** PCRE's `.` without the `s` modifier. */
export const DOT = '[^\\n]';
/** PCRE's `$` without the `D` modifier. */
export const END = '(?=\\n?$)';

/** Pre-release data as Composer accepts it; groups: stability, its number, dev. */
export const MODIFIER =
  '[._-]?(?:(stable|beta|b|RC|alpha|a|patch|pl|p)((?:[.-]?\\d+)*)?)?([.-]?dev)?';

const ALIAS_RE = new RegExp(`^([^,${WS}]+) +as +([^,${WS}]+)${END}`);
const FLAG_RE = new RegExp(`@(?:stable|RC|beta|alpha|dev)${END}`, 'i');
const BUILD_RE = new RegExp(`^([^,${WS}+]+)\\+[^${WS}]+${END}`);
const CLASSICAL_RE = new RegExp(
  `^v?(\\d{1,5})(\\.\\d+)?(\\.\\d+)?(\\.\\d+)?${MODIFIER}${END}`,
  'i',
);
const DATE_RE = new RegExp(
  `^v?(\\d{4}(?:[.:-]?\\d{2}){1,6}(?:[.:-]?\\d{1,3})?)${MODIFIER}${END}`,
  'i',
);
const DEV_SUFFIX_RE = new RegExp(`(${DOT}*?)[.-]?dev${END}`, 'i');
const BRANCH_RE = new RegExp(
  `^v?(\\d+)(\\.(?:\\d+|[xX*]))?(\\.(?:\\d+|[xX*]))?(\\.(?:\\d+|[xX*]))?${END}`,
  'i',
);
const STABILITY_RE = new RegExp(`${MODIFIER}(?:\\+${DOT}*)?${END}`, 'i');
const HASH_SUFFIX_RE = new RegExp(`#${DOT}+${END}`, 'g');
const STABILITIES = '(?:stable|RC|beta|alpha|dev)';

/** A capture group as PHP sees it: unmatched groups read as ''. */
export function group(m: RegExpExecArray, i: number): string {
  return m[i] ?? '';
}

/** PHP's empty() for a captured string. */
export function phpEmpty(s: string | undefined): boolean {
  return s === undefined || s === '' || s === '0';
}

/** PHP's trim() default character set (no form feed, unlike String#trim). */
export function phpTrim(s: string): string {
  return s.replace(/^[ \t\n\r\0\v]+|[ \t\n\r\0\v]+$/g, '');
}

/** PHP 8.2's strtolower is ASCII-only. */
export function asciiLower(s: string): string {
  return s.replace(/[A-Z]+/g, (c) => c.toLowerCase());
}

function escapeRegExp(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

function expandStability(stability: string): string {
  const s = asciiLower(stability);
  switch (s) {
    case 'a':
      return 'alpha';
    case 'b':
      return 'beta';
    case 'p':
    case 'pl':
      return 'patch';
    case 'rc':
      return 'RC';
    default:
      return s;
  }
}

export function normalizeVersion(input: string, fullVersion?: string): string {
  let version = phpTrim(input);
  const origVersion = version;
  const full = fullVersion ?? version;

  const alias = ALIAS_RE.exec(version);
  if (alias) version = group(alias, 1);

  const flag = FLAG_RE.exec(version);
  if (flag) version = version.slice(0, version.length - flag[0].length);

  if (version === 'master' || version === 'trunk' || version === 'default') {
    version = `dev-${version}`;
  }
  if (asciiLower(version.slice(0, 4)) === 'dev-') return `dev-${version.slice(4)}`;

  const build = BUILD_RE.exec(version);
  if (build) version = group(build, 1);

  let matched: { version: string; m: RegExpExecArray; index: number } | undefined;
  const classical = CLASSICAL_RE.exec(version);
  if (classical) {
    const pad = (s: string): string => (phpEmpty(s) ? '.0' : s);
    matched = {
      version:
        group(classical, 1) +
        pad(group(classical, 2)) +
        pad(group(classical, 3)) +
        pad(group(classical, 4)),
      m: classical,
      index: 5,
    };
  } else {
    const date = DATE_RE.exec(version);
    if (date) matched = { version: group(date, 1).replace(/\D/g, '.'), m: date, index: 2 };
  }

  if (matched) {
    const { m, index } = matched;
    let result = matched.version;
    const stability = group(m, index);
    if (!phpEmpty(stability)) {
      // Case-sensitive on purpose: Composer keeps "-STABLE" as a suffix.
      if (stability === 'stable') return result;
      result += `-${expandStability(stability)}${group(m, index + 1).replace(/^[.-]+/, '')}`;
    }
    if (!phpEmpty(group(m, index + 2))) result += '-dev';
    return result;
  }

  const dev = DEV_SUFFIX_RE.exec(version);
  if (dev) {
    const normalized = normalizeBranch(group(dev, 1));
    // "foo-dev" is not a version; only numeric branches may end in -dev.
    if (!normalized.includes('dev-')) return normalized;
  }

  let extra = '';
  const quoted = escapeRegExp(version);
  if (new RegExp(` +as +${quoted}(?:@${STABILITIES})?${END}`).test(full)) {
    extra = ` in "${full}", the alias must be an exact version`;
  } else if (new RegExp(`^${quoted}(?:@${STABILITIES})? +as +`).test(full)) {
    extra = ` in "${full}", the alias source must be an exact version, if it is a branch name you should prefix it with dev-`;
  }
  throw new InvalidVersionError(`Invalid version string "${origVersion}"${extra}`);
}

/** `1.x` → `1.9999999.9999999.9999999-dev`; anything non-numeric → `dev-<name>`. */
export function normalizeBranch(name: string): string {
  const trimmed = phpTrim(name);
  const m = BRANCH_RE.exec(trimmed);
  if (m) {
    let version = '';
    for (let i = 1; i < 5; i++) {
      const part = m[i];
      version += part === undefined ? '.x' : part.replace(/[*X]/g, 'x');
    }
    return `${version.replace(/x/g, '9999999')}-dev`;
  }
  return `dev-${trimmed}`;
}

export function parseStability(input: string): Stability {
  const version = input.replace(HASH_SUFFIX_RE, '');
  if (version.startsWith('dev-') || version.endsWith('-dev')) return 'dev';

  const m = STABILITY_RE.exec(asciiLower(version));
  if (!m) return 'stable';
  if (!phpEmpty(m[3])) return 'dev';
  switch (m[1]) {
    case 'beta':
    case 'b':
      return 'beta';
    case 'alpha':
    case 'a':
      return 'alpha';
    case 'rc':
      return 'RC';
    default:
      return 'stable';
  }
}

export function isDevVersion(normalized: string): boolean {
  return parseStability(normalized) === 'dev';
}

export interface VersionPair {
  /** The pretty version, as Composer shows it. */
  version: string;
  normalized: string;
}

/**
 * A git tag as Composer's VcsRepository reads it (auto-versioned, i.e. no
 * `version` field in composer.json): null when Composer would skip the tag.
 */
export function tagToVersion(tag: string): VersionPair | null {
  const name = tag.split('release-').join('');
  let parsed: string;
  try {
    parsed = normalizeVersion(name);
  } catch {
    return null;
  }
  // Tags may not be dev versions: Composer strips dev markers and then skips the
  // tag because the result no longer matches.
  const stripped = parsed.replace(new RegExp(`(^dev-|[.-]?dev${END})`, 'gi'), '');
  if (stripped !== parsed) return null;
  return { version: name, normalized: parsed };
}

/**
 * A git branch as Composer's VcsRepository reads it: `1.x` → `1.x-dev`, `feature/x`
 * → `dev-feature/x`. Null when the branch name does not survive constraint parsing
 * (Composer skips such branches).
 */
export function branchToVersion(branch: string): VersionPair | null {
  const normalized = normalizeBranch(branch);
  try {
    parseConstraint(normalized);
  } catch {
    return null;
  }
  if (normalized.startsWith('dev-')) {
    return { version: `dev-${branch}`, normalized };
  }
  const prefix = branch.startsWith('v') ? 'v' : '';
  return { version: prefix + normalized.replace(/(\.9999999)+/g, '.x'), normalized };
}

const LONG_MAX = '9223372036854775807';

/** strtol() of a run of digits, clamped as C does, as a canonical decimal string. */
function strtol(segment: string): string {
  const digits = (/^\d*/.exec(segment)?.[0] ?? '').replace(/^0+(?=\d)/, '');
  if (digits.length > LONG_MAX.length || (digits.length === LONG_MAX.length && digits > LONG_MAX)) {
    return LONG_MAX;
  }
  return digits;
}

function compareDecimal(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a === b ? 0 : a < b ? -1 : 1;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isNdig = (c: string): boolean => !isDigit(c) && c !== '.';
const isAlnum = (c: string): boolean => /^[0-9A-Za-z]$/.test(c);

/** php_canonicalize_version(): separators become dots, dots split digits from letters. */
function canonicalize(version: string): string {
  const first = version[0];
  if (first === undefined) return '';
  let out = first;
  let lp = first;
  for (let i = 1; i < version.length; i++) {
    const p = version.charAt(i);
    const lq = out[out.length - 1];
    if (p === '-' || p === '_' || p === '+') {
      if (lq !== '.') out += '.';
    } else if ((isNdig(lp) && isDigit(p)) || (isDigit(lp) && isNdig(p))) {
      if (lq !== '.') out += '.';
      out += p;
    } else if (!isAlnum(p)) {
      if (lq !== '.') out += '.';
    } else {
      out += p;
    }
    lp = p;
  }
  return out;
}

const SPECIAL_FORMS: ReadonlyArray<readonly [string, number]> = [
  ['dev', 0],
  ['alpha', 1],
  ['a', 1],
  ['beta', 2],
  ['b', 2],
  ['RC', 3],
  ['rc', 3],
  ['#', 4],
  ['pl', 5],
  ['p', 5],
];

function specialOrder(form: string): number {
  return SPECIAL_FORMS.find(([name]) => form.startsWith(name))?.[1] ?? -1;
}

function compareSpecial(a: string, b: string): number {
  return Math.sign(specialOrder(a) - specialOrder(b));
}

/** PHP's version_compare($a, $b): -1, 0 or 1. */
export function phpVersionCompare(a: string, b: string): number {
  // C strings end at the first NUL.
  const orig1 = a.split('\0', 1)[0] ?? '';
  const orig2 = b.split('\0', 1)[0] ?? '';
  if (orig1 === '' || orig2 === '') {
    if (orig1 === '' && orig2 === '') return 0;
    return orig1 !== '' ? 1 : -1;
  }
  const v1 = orig1.startsWith('#') ? orig1 : canonicalize(orig1);
  const v2 = orig2.startsWith('#') ? orig2 : canonicalize(orig2);

  let p1 = 0;
  let p2 = 0;
  let n1: number | null = 0;
  let n2: number | null = 0;
  let compare = 0;
  while (p1 < v1.length && p2 < v2.length && n1 !== null && n2 !== null) {
    const d1 = v1.indexOf('.', p1);
    const d2 = v2.indexOf('.', p2);
    n1 = d1 < 0 ? null : d1;
    n2 = d2 < 0 ? null : d2;
    const s1 = v1.slice(p1, n1 ?? v1.length);
    const s2 = v2.slice(p2, n2 ?? v2.length);
    if (isDigit(s1[0]) && isDigit(s2[0])) {
      compare = compareDecimal(strtol(s1), strtol(s2));
    } else if (!isDigit(s1[0]) && !isDigit(s2[0])) {
      compare = compareSpecial(s1, s2);
    } else if (isDigit(s1[0])) {
      compare = compareSpecial('#N#', s2);
    } else {
      compare = compareSpecial(s1, '#N#');
    }
    if (compare !== 0) break;
    if (n1 !== null) p1 = n1 + 1;
    if (n2 !== null) p2 = n2 + 1;
  }
  if (compare === 0) {
    if (n1 !== null) {
      compare = isDigit(v1[p1]) ? 1 : phpVersionCompare(v1.slice(p1), '#N#');
    } else if (n2 !== null) {
      compare = isDigit(v2[p2]) ? -1 : phpVersionCompare('#N#', v2.slice(p2));
    }
  }
  return compare;
}
