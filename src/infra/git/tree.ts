import type { GitObject } from './catfile.js';
import { assertRevision, runGit } from './exec.js';
import { ObjectReader } from './object-reader.js';
import { Unsupported, parseTree, type TreeEntry } from './zip-tree.js';

export interface TreeOptions {
  timeoutMs?: number;
  /** An open reader of this repository to use (and leave open) instead of a new process. */
  reader?: ObjectReader;
}

/**
 * Folders of `commit` matching any of `globs` (`*` and `?` stay within one path segment, `**`
 * spans segments) that contain a composer.json. Sorted; paths without trailing slash.
 */
export async function listDirectories(
  dir: string,
  commit: string,
  globs: readonly string[],
  opts: TreeOptions = {},
): Promise<string[]> {
  assertRevision(commit);
  if (globs.length === 0) return [];
  const { stdout } = await runGit(
    ['ls-tree', '-r', '-z', '--name-only', '--end-of-options', commit],
    { gitDir: dir, timeoutMs: opts.timeoutMs },
  );
  const patterns = globs.map(globToRegExp);
  const found = new Set<string>();
  for (const file of stdout.toString('utf8').split('\0')) {
    if (file !== 'composer.json' && !file.endsWith('/composer.json')) continue;
    const folder = file.slice(0, -'composer.json'.length).replace(/\/$/, '');
    if (patterns.some((p) => p.test(folder))) found.add(folder);
  }
  return [...found].sort();
}

export function globToRegExp(glob: string): RegExp {
  const normalized = glob.replace(/^(\.\/|\/)+/, '').replace(/\/+$/, '');
  const source = normalized === '.' ? '' : normalized;
  let re = '';
  for (let i = 0; i < source.length; i++) {
    const c = source.charAt(i);
    if (c === '*' && source.charAt(i + 1) === '*') {
      i++;
      if (source.charAt(i + 1) === '/') {
        i++;
        re += '(?:.*/)?';
      } else {
        re += '.*';
      }
    } else if (c === '*') {
      re += '[^/]*';
    } else if (c === '?') {
      re += '[^/]';
    } else {
      re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${re}$`);
}

export interface Readme {
  path: string;
  content: string;
}

const README = /^readme(\.(md|markdown|txt|rst))?$/i;
const EXTENSION_RANK = ['.md', '.markdown', '', '.txt', '.rst'];

/**
 * The README among one tree's entries (case-insensitive; README.md preferred), or null. Symlinks
 * are skipped: their content is a path.
 */
export function readmeEntry(entries: readonly TreeEntry[]): { name: string; oid: string } | null {
  const candidates: { name: string; oid: string; rank: number }[] = [];
  for (const e of entries) {
    if ((e.kind !== 'file' && e.kind !== 'exec') || !README.test(e.name)) continue;
    const ext = (/\.[^.]+$/.exec(e.name)?.[0] ?? '').toLowerCase();
    // Exact upper-case README.* wins a tie with readme.* / Readme.*.
    const rank = EXTENSION_RANK.indexOf(ext) * 2 + (e.name.startsWith('README') ? 0 : 1);
    candidates.push({ name: e.name, oid: e.oid, rank });
  }
  candidates.sort((a, b) => a.rank - b.rank || (a.name < b.name ? -1 : 1));
  return candidates[0] ?? null;
}

/**
 * The blob id of the README in a tree object read by the caller, '' when it has none (or is not
 * a tree, or uses an object format this parser does not read).
 */
export function readmeBlobOf(tree: GitObject | null | undefined): string {
  if (tree?.type !== 'tree') return '';
  try {
    return readmeEntry(parseTree(tree.content, tree.oid.length / 2))?.oid ?? '';
  } catch (err) {
    if (err instanceof Unsupported) return '';
    throw err;
  }
}

/**
 * The README at the root of `commit` (case-insensitive; README.md preferred), or null. One
 * `git cat-file` process reads the root tree, then the file.
 */
export async function findReadme(
  dir: string,
  commit: string,
  opts: TreeOptions = {},
): Promise<Readme | null> {
  assertRevision(commit);
  const reader = opts.reader ?? new ObjectReader(dir, opts);
  try {
    const tree = await reader.read(`${commit}^{tree}`);
    if (tree?.type !== 'tree') return null;
    let entries: TreeEntry[];
    try {
      entries = parseTree(tree.content, tree.oid.length / 2);
    } catch (err) {
      if (err instanceof Unsupported) return null;
      throw err;
    }
    const best = readmeEntry(entries);
    if (!best) return null;
    const blob = await reader.read(best.oid);
    const name = Buffer.from(best.name, 'latin1').toString('utf8');
    return blob?.type === 'blob' ? { path: name, content: blob.content.toString('utf8') } : null;
  } finally {
    if (!opts.reader) await reader.close();
  }
}
