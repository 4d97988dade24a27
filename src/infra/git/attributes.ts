/**
 * The part of gitattributes (docs: gitattributes(5), gitignore(5) for patterns) that decides what
 * `git archive` puts in a zip: `export-ignore`, and `diff`/`binary` for the zip's text/binary hint.
 * Files using attributes that would change a file's bytes in an archive (export-subst, ident,
 * filter, working-tree-encoding, crlf, eol=crlf) or defining macros are reported as unsupported,
 * and their archives are left to git itself.
 */

/** An attribute's state on a line: set, unset (`-a`), unspecified (`!a`) or a value (`a=v`). */
export type AttrValue = true | false | null | string;

export interface AttrLine {
  test: (path: string, isDir: boolean) => boolean;
  states: [string, AttrValue][];
}

export interface AttrFile {
  lines: AttrLine[];
  /** Why git must build archives that see this file (null: this module covers it). */
  unsupported: string | null;
}

const BLANK = /[ \t\r\n]+/;
const NAME = /^[-_.A-Za-z0-9]+$/;
const NEVER = (): boolean => false;

/** Parses a .gitattributes file (its bytes as a latin1 string). */
export function parseAttributes(text: string): AttrFile {
  const lines: AttrLine[] = [];
  let unsupported: string | null = null;
  const body = text.startsWith('\xef\xbb\xbf') ? text.slice(3) : text;
  for (const raw of body.split('\n')) {
    if (raw.length > 2000) unsupported ??= 'a line longer than 2,000 bytes';
    const line = raw.replace(/^[ \t\r]+/, '');
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('"')) {
      unsupported ??= 'a quoted pattern';
      continue;
    }
    if (line.startsWith('[attr]')) {
      unsupported ??= 'a macro definition';
      continue;
    }
    const [pattern = '', ...tokens] = line.split(BLANK).filter((t) => t !== '');
    // Negative patterns are ignored by git in attribute files.
    if (pattern.startsWith('!')) continue;
    const states: [string, AttrValue][] = [];
    let valid = true;
    for (const token of tokens) {
      const [name, value]: [string, AttrValue] =
        token.startsWith('-') || token.startsWith('!')
          ? [token.slice(1), token.startsWith('-') ? false : null]
          : token.includes('=')
            ? [token.slice(0, token.indexOf('=')), token.slice(token.indexOf('=') + 1)]
            : [token, true];
      if (!NAME.test(name) || name.startsWith('-')) valid = false;
      states.push([name, value]);
    }
    if (!valid) continue;
    for (const [name, value] of states) unsupported ??= changesContent(name, value);
    lines.push({ test: compilePattern(pattern), states });
  }
  return { lines, unsupported };
}

function changesContent(name: string, value: AttrValue): string | null {
  if (value === false || value === null) return null;
  if (name === 'eol' && value === 'lf') return null;
  if (['export-subst', 'ident', 'filter', 'working-tree-encoding', 'crlf', 'eol'].includes(name)) {
    return `the ${name} attribute`;
  }
  return null;
}

/** An attribute file in place: `base` is its folder relative to the archive's root ('' or 'a/b/'). */
export interface AttrFrame {
  base: string;
  file: AttrFile;
}

/**
 * The value of each of `names` for `path` (relative to the archive's root, no trailing slash),
 * given the attribute files of its ancestor folders, root first. Unmentioned: not in the map.
 * As in git, the nearest file wins, and within a file the last matching line.
 */
export function attributesOf(
  frames: readonly AttrFrame[],
  path: string,
  isDir: boolean,
  names: readonly string[],
): Map<string, AttrValue> {
  const found = new Map<string, AttrValue>();
  for (let f = frames.length - 1; f >= 0 && found.size < names.length; f--) {
    const { base, file } = frames[f]!;
    const relative = path.slice(base.length);
    for (let l = file.lines.length - 1; l >= 0 && found.size < names.length; l--) {
      const line = file.lines[l]!;
      if (!line.test(relative, isDir)) continue;
      for (let s = line.states.length - 1; s >= 0; s--) {
        const [name, value] = line.states[s]!;
        if (!found.has(name) && names.includes(name)) found.set(name, value);
        // The built-in macro: `binary` is `-diff -merge -text`.
        if (name === 'binary' && value === true && !found.has('diff') && names.includes('diff')) {
          found.set('diff', false);
        }
      }
    }
  }
  return found;
}

/**
 * One line's pattern as a test of a path relative to the attribute file's folder: without a
 * slash it matches the last path segment at any depth; with one, the whole relative path
 * (a leading slash only anchors it). A trailing slash matches folders only.
 */
function compilePattern(raw: string): AttrLine['test'] {
  let pattern = raw;
  const mustBeDir = pattern.endsWith('/');
  if (mustBeDir) pattern = pattern.slice(0, -1);
  if (!pattern.includes('/')) {
    const re = globToRegExp(pattern, false);
    if (!re) return NEVER;
    return (path, isDir) => (!mustBeDir || isDir) && re.test(path.slice(path.lastIndexOf('/') + 1));
  }
  if (pattern.startsWith('/')) pattern = pattern.slice(1);
  const re = globToRegExp(pattern, true);
  if (!re) return NEVER;
  return (path, isDir) => (!mustBeDir || isDir) && re.test(path);
}

const CLASSES: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  blank: ' \\t',
  cntrl: '\\x00-\\x1f\\x7f',
  digit: '0-9',
  graph: '\\x21-\\x7e',
  lower: 'a-z',
  print: '\\x20-\\x7e',
  punct: '!-\\/:-@\\[-`{-~',
  space: ' \\t\\n\\v\\f\\r',
  upper: 'A-Z',
  xdigit: '0-9A-Fa-f',
};

const hex = (c: string) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
const literal = (c: string) => (/[A-Za-z0-9]/.test(c) ? c : hex(c));

/**
 * A glob as a RegExp over byte strings: `?` and `*` stay within a path segment when `pathname`,
 * `**` between slashes (or at either end) spans segments, `[...]` sets with `!`/`^`, ranges and
 * `[:class:]`, backslash escapes. Null for a pattern that can match nothing (an unclosed set).
 */
export function globToRegExp(glob: string, pathname: boolean): RegExp | null {
  const any = pathname ? '[^/]' : '[\\s\\S]';
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob.charAt(i);
    if (c === '\\') {
      i++;
      if (i >= glob.length) return null;
      re += literal(glob.charAt(i));
    } else if (c === '?') {
      re += any;
    } else if (c === '*') {
      let end = i;
      while (glob.charAt(end + 1) === '*') end++;
      const double = end > i;
      const after = glob.charAt(end + 1);
      const slashAfter = after === '/' || (after === '\\' && glob.charAt(end + 2) === '/');
      if (
        pathname &&
        double &&
        (i === 0 || glob.charAt(i - 1) === '/') &&
        (after === '' || slashAfter)
      ) {
        if (after === '') re += '[\\s\\S]*';
        else {
          re += '(?:[\\s\\S]*/)?';
          end += after === '/' ? 1 : 2;
        }
      } else {
        re += `${any}*`;
      }
      i = end;
    } else if (c === '[') {
      const set = parseSet(glob, i + 1, pathname);
      if (!set) return null;
      re += set.re;
      i = set.end;
    } else {
      re += literal(c);
    }
  }
  return new RegExp(`^${re}$`);
}

/** A `[...]` set starting after its `[`: its RegExp and the index of its closing `]`. */
function parseSet(
  glob: string,
  start: number,
  pathname: boolean,
): { re: string; end: number } | null {
  let i = start;
  const negated = glob.charAt(i) === '!' || glob.charAt(i) === '^';
  if (negated) i++;
  let members = '';
  let prev: string | null = null;
  let first = true;
  for (; first || glob.charAt(i) !== ']'; i++) {
    first = false;
    if (i >= glob.length) return null;
    let c = glob.charAt(i);
    if (c === '\\') {
      i++;
      if (i >= glob.length) return null;
      c = glob.charAt(i);
      members += literal(c);
      prev = c;
    } else if (c === '-' && prev !== null && i + 1 < glob.length && glob.charAt(i + 1) !== ']') {
      i++;
      let to = glob.charAt(i);
      if (to === '\\') {
        i++;
        if (i >= glob.length) return null;
        to = glob.charAt(i);
      }
      // The start was added as a member already; a reversed range adds nothing more.
      if (to >= prev) members += `${literal(prev)}-${literal(to)}`;
      prev = null;
    } else if (c === '[' && glob.charAt(i + 1) === ':') {
      const close = glob.indexOf(']', i + 2);
      if (close < 0) return null;
      if (glob.charAt(close - 1) !== ':' || close - 1 < i + 2) {
        members += literal('[');
        prev = '[';
        continue;
      }
      const cls = CLASSES[glob.slice(i + 2, close - 1)];
      if (cls === undefined) return null;
      members += cls;
      prev = null;
      i = close;
    } else {
      members += literal(c);
      prev = c;
    }
  }
  if (members === '') return { re: negated ? (pathname ? '[^/]' : '[\\s\\S]') : '(?!)', end: i };
  const re = negated
    ? `[^${members}${pathname ? '\\/' : ''}]`
    : pathname
      ? `(?!\\/)[${members}]`
      : `[${members}]`;
  return { re, end: i };
}
