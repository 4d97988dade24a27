/**
 * Composer's constraint parsing, ported from composer/semver's VersionParser::parseConstraints (3.3).
 */
import {
  DOT,
  END,
  InvalidVersionError,
  MODIFIER,
  WS,
  asciiLower,
  group,
  normalizeVersion,
  parseStability,
  phpEmpty,
  phpTrim,
} from './version.js';
import {
  InvalidConstraintError,
  MatchAllConstraint,
  MultiConstraint,
  SingleConstraint,
  createDisjunction,
} from './constraint.js';
import type { Constraint, Operator } from './constraint.js';

const OPERATORS: Readonly<Record<string, Operator>> = {
  '=': '==',
  '==': '==',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
  '<>': '!=',
  '!=': '!=',
};

const single = (op: string, version: string): SingleConstraint =>
  new SingleConstraint(OPERATORS[op] ?? '==', version);

/** A version as constraints write it: Composer's classical form, or an `.x-dev` wildcard. */
const VERSION =
  `v?(\\d+)(?:\\.(\\d+))?(?:\\.(\\d+))?(?:\\.(\\d+))?` +
  `(?:${MODIFIER}|\\.([xX*][.-]?dev))(?:\\+[^${WS}]+)?`;
const RE = {
  orSplit: new RegExp(`[${WS}]*\\|\\|?[${WS}]*`),
  andSplit: new RegExp(`(?<!^|as|[=>< ,]) *(?<!-)[, ](?!-) *(?!,|as|${END})`),
  alias: new RegExp(`^([^,${WS}]+) +as +([^,${WS}]+)${END}`),
  flag: new RegExp(`^([^,${WS}]*?)@(stable|RC|beta|alpha|dev)${END}`, 'i'),
  ref: new RegExp(`^(dev-[^,${WS}@]+?|[^,${WS}@]+?\\.x-dev)#${DOT}+${END}`, 'i'),
  wildcard: new RegExp(`^(v)?[xX*](\\.[xX*])*${END}`, 'i'),
  tilde: new RegExp(`^~>?${VERSION}${END}`, 'i'),
  caret: new RegExp(`^\\^${VERSION}${END}`, 'i'),
  xRange: new RegExp(`^v?(\\d+)(?:\\.(\\d+))?(?:\\.(\\d+))?(?:\\.[xX*])+${END}`),
  hyphen: new RegExp(`^(${VERSION}) +- +(${VERSION})${END}`, 'i'),
  basic: new RegExp(`^(<>|!=|>=?|<=?|==?)?[${WS}]*(${DOT}*)`),
  devRecovery: new RegExp(`^[0-9a-zA-Z./-]+${END}`),
  hasModifier: new RegExp(`-${MODIFIER}${END}`),
};

export function parseConstraint(input: string): Constraint {
  try {
    const groups = phpTrim(input)
      .split(RE.orSplit)
      .map((part): Constraint => {
        const ands = part.split(RE.andSplit);
        const parsed = ands.length > 1 ? ands.flatMap(parseOne) : parseOne(ands[0] ?? '');
        const [only] = parsed;
        return parsed.length === 1 && only ? only : new MultiConstraint(parsed, true);
      });
    return createDisjunction(groups);
  } catch (e) {
    // Composer lets some normalize() errors escape unwrapped (e.g. from `~` ranges).
    if (e instanceof InvalidVersionError) throw new InvalidConstraintError(e.message);
    throw e;
  }
}

/** PHP's `$matches[$i] += 1` on a digit string: an int, or a float once past int64. */
function increment(digits: string): string {
  const n = BigInt(digits || '0') + 1n;
  if (n <= 9223372036854775807n) return n.toString();
  // PHP prints floats with precision=14, e.g. 1.0E+20.
  const [mantissa = '', exponent = ''] = (Number(digits) + 1).toPrecision(14).split('e');
  const trimmed = mantissa.replace(/0+$/, '').replace(/\.$/, '.0');
  return `${trimmed}E${exponent}`;
}

/** manipulateVersionString: bump the part at `position` (1-4) and zero the ones after. */
function bump(parts: readonly string[], position: number): string {
  const out = [1, 2, 3, 4].map((i) => {
    const part = parts[i] ?? '';
    if (i > position) return '0';
    return i === position ? increment(part) : part;
  });
  return out.join('.');
}

function pad(parts: readonly string[], position: number): string {
  return [1, 2, 3, 4].map((i) => (i > position ? '0' : (parts[i] ?? ''))).join('.');
}

const set = (m: RegExpExecArray, i: number): boolean => group(m, i) !== '';

/** VersionParser::parseConstraint: one AND-ed piece to one or two constraints. */
function parseOne(piece: string): Constraint[] {
  const p = RE;
  let constraint = piece;
  let stabilityModifier: string | undefined;

  const alias = p.alias.exec(constraint);
  if (alias) constraint = group(alias, 1);

  const flag = p.flag.exec(constraint);
  if (flag) {
    constraint = group(flag, 1) !== '' ? group(flag, 1) : '*';
    if (group(flag, 2) !== 'stable') stabilityModifier = group(flag, 2);
  }

  const ref = p.ref.exec(constraint);
  if (ref) constraint = group(ref, 1);

  const wildcard = p.wildcard.exec(constraint);
  if (wildcard) {
    if (!phpEmpty(wildcard[1]) || !phpEmpty(wildcard[2])) return [single('>=', '0.0.0.0-dev')];
    return [new MatchAllConstraint()];
  }

  const tilde = p.tilde.exec(constraint);
  if (tilde) {
    if (constraint.startsWith('~>')) {
      throw new InvalidConstraintError(
        `Could not parse version constraint ${constraint}: Invalid operator "~>", you probably meant to use the "~" operator`,
      );
    }
    let position = set(tilde, 4) ? 4 : set(tilde, 3) ? 3 : set(tilde, 2) ? 2 : 1;
    // 2.x-dev / 3.0.x-dev shift the position past the x.
    if (!phpEmpty(tilde[8])) position++;
    const suffix = devSuffix(tilde[5], tilde[7], tilde[8]);
    const low = normalizeVersion((constraint + suffix).slice(1));
    const high = bump(tilde, Math.max(1, position - 1));
    return [single('>=', low), single('<', `${high}-dev`)];
  }

  const caret = p.caret.exec(constraint);
  if (caret) {
    let position = 3;
    if (group(caret, 1) !== '0' || !set(caret, 2)) position = 1;
    else if (group(caret, 2) !== '0' || !set(caret, 3)) position = 2;
    const suffix = devSuffix(caret[5], caret[7], caret[8]);
    const low = normalizeVersion((constraint + suffix).slice(1));
    return [single('>=', low), single('<', `${bump(caret, position)}-dev`)];
  }

  const xRange = p.xRange.exec(constraint);
  if (xRange) {
    const position = set(xRange, 3) ? 3 : set(xRange, 2) ? 2 : 1;
    const low = `${pad(xRange, position)}-dev`;
    const high = `${bump(xRange, position)}-dev`;
    if (low === '0.0.0.0-dev') return [single('<', high)];
    return [single('>=', low), single('<', high)];
  }

  const hyphen = p.hyphen.exec(constraint);
  if (hyphen) {
    const low = normalizeVersion(group(hyphen, 1)) + devSuffix(hyphen[6], hyphen[8], hyphen[9]);
    const to = group(hyphen, 10);
    const exactTo =
      (set(hyphen, 12) && set(hyphen, 13)) ||
      !phpEmpty(hyphen[15]) ||
      !phpEmpty(hyphen[17]) ||
      !phpEmpty(hyphen[18]);
    if (exactTo) return [single('>=', low), single('<=', normalizeVersion(to))];
    normalizeVersion(to); // validates only
    const parts = ['', group(hyphen, 11), group(hyphen, 12), group(hyphen, 13), group(hyphen, 14)];
    const high = bump(parts, set(hyphen, 12) ? 2 : 1);
    return [single('>=', low), single('<', `${high}-dev`)];
  }

  return [basicComparison(constraint, stabilityModifier)];
}

function devSuffix(...groups: Array<string | undefined>): string {
  return groups.every(phpEmpty) ? '-dev' : '';
}

function basicComparison(constraint: string, stabilityModifier: string | undefined): Constraint {
  const p = RE;
  const m = p.basic.exec(constraint);
  const opText = m ? group(m, 1) : '';
  const target = m ? group(m, 2) : '';
  try {
    let version: string;
    try {
      version = normalizeVersion(target);
    } catch (e) {
      // `foobar-dev` is accepted as `dev-foobar`
      if (target.endsWith('-dev') && p.devRecovery.test(target)) {
        version = normalizeVersion(`dev-${target.slice(0, -4)}`);
      } else {
        throw e;
      }
    }
    const op = opText || '=';
    if (op !== '==' && op !== '=' && stabilityModifier && parseStability(version) === 'stable') {
      version += `-${stabilityModifier}`;
    } else if (op === '<' || op === '>=') {
      // Case-sensitive on a lowercased string, so `-RC1` is not seen as a modifier.
      if (!p.hasModifier.test(asciiLower(target)) && !target.startsWith('dev-')) {
        version += '-dev';
      }
    }
    return single(op, version);
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    throw new InvalidConstraintError(`Could not parse version constraint ${constraint}: ${reason}`);
  }
}

const CACHE_LIMIT = 2000;
const cache = new Map<string, Constraint | InvalidConstraintError>();

/** parseConstraint with a small bounded cache (oldest entries evicted first). */
export function parseConstraintCached(input: string): Constraint {
  let entry = cache.get(input);
  if (entry === undefined) {
    try {
      entry = parseConstraint(input);
    } catch (e) {
      if (!(e instanceof InvalidConstraintError)) throw e;
      entry = e;
    }
    if (cache.size >= CACHE_LIMIT) {
      const oldest = cache.keys().next();
      if (!oldest.done) cache.delete(oldest.value);
    }
    cache.set(input, entry);
  }
  if (entry instanceof InvalidConstraintError) throw new InvalidConstraintError(entry.message);
  return entry;
}
