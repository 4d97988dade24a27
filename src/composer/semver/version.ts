/**
 * Composer's version rules, ported from composer/semver's VersionParser (3.3).
 *
 * The regular expressions are PCRE ones translated to JavaScript: PCRE's `\s` is
 * ASCII-only, its `.` only refuses LF, and its `$` also matches before a final LF,
 * so those are spelled out below rather than using the JavaScript equivalents.
 */

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
