import { catFileBatch } from './catfile.js';
import { assertRevision, runGit } from './exec.js';

export interface TreeOptions {
  timeoutMs?: number;
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

/** The README at the root of `commit` (case-insensitive; README.md preferred), or null. */
export async function findReadme(
  dir: string,
  commit: string,
  opts: TreeOptions = {},
): Promise<Readme | null> {
  assertRevision(commit);
  const { stdout } = await runGit(['ls-tree', '-z', '--end-of-options', commit], {
    gitDir: dir,
    timeoutMs: opts.timeoutMs,
  });
  const candidates: { name: string; oid: string; rank: number }[] = [];
  for (const entry of stdout.toString('utf8').split('\0')) {
    // `<mode> <type> <oid>\t<name>`; symlinks (120000) are skipped, their content is a path.
    const m = /^(100644|100755) blob ([0-9a-f]+)\t(.*)$/s.exec(entry);
    if (!m?.[2] || !m[3] || !README.test(m[3])) continue;
    const ext = (/\.[^.]+$/.exec(m[3])?.[0] ?? '').toLowerCase();
    // Exact upper-case README.* wins a tie with readme.* / Readme.*.
    const rank = EXTENSION_RANK.indexOf(ext) * 2 + (m[3].startsWith('README') ? 0 : 1);
    candidates.push({ name: m[3], oid: m[2], rank });
  }
  candidates.sort((a, b) => a.rank - b.rank || (a.name < b.name ? -1 : 1));
  const best = candidates[0];
  if (!best) return null;
  const [blob] = await catFileBatch(dir, [best.oid], opts);
  return blob ? { path: best.name, content: blob.content.toString('utf8') } : null;
}
