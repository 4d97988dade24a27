/** PHP's version_compare, as Composer orders normalized versions. */

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
