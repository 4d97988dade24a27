import { GitError } from './errors.js';
import { assertRevision } from './exec.js';
import type { GitObject } from './catfile.js';
import type { ObjectReader } from './object-reader.js';
import { globToRegExp } from './tree.js';
import { Unsupported, parseTree, type TreeEntry } from './zip-tree.js';

const utf8 = (latin1: string) => Buffer.from(latin1, 'latin1').toString('utf8');

/** Whether a folder path could be, or hold, a match of the glob (so whether to look inside). */
function reachable(glob: string): (segments: readonly string[]) => boolean {
  const parts = glob
    .replace(/^(\.\/|\/)+/, '')
    .replace(/\/+$/, '')
    .split('/')
    .filter((p) => p !== '' && p !== '.');
  const spans = parts.findIndex((p) => p.includes('**'));
  const fixed = (spans < 0 ? parts : parts.slice(0, spans)).map((p) => globToRegExp(p));
  return (segments) =>
    (spans >= 0 || segments.length <= fixed.length) &&
    segments.every((s, i) => i >= fixed.length || fixed[i]!.test(s));
}

/**
 * For each commit, the folders matching any of `globs` that hold a composer.json, as
 * listDirectories finds them, read through one open reader: each tree object is read once for
 * all commits, and only folders a glob can reach are opened.
 */
export async function findComposerFolders(
  reader: ObjectReader,
  commits: readonly string[],
  globs: readonly string[],
): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>();
  if (globs.length === 0) {
    for (const commit of commits) result.set(commit, []);
    return result;
  }
  const patterns = globs.map(globToRegExp);
  const reach = globs.map(reachable);
  const trees = new Map<string, Promise<TreeEntry[]>>();
  const parse = (obj: GitObject | null, name: string): TreeEntry[] => {
    if (obj?.type !== 'tree') throw new GitError(`No tree at ${name}`, { kind: 'not-found' });
    try {
      return parseTree(obj.content, obj.oid.length / 2);
    } catch (err) {
      // A tree git cannot archive still lists what it holds; its odd entry is left out.
      if (err instanceof Unsupported) return [];
      throw err;
    }
  };
  const read = (oid: string): Promise<TreeEntry[]> => {
    let entries = trees.get(oid);
    if (!entries) {
      entries = reader.read(oid).then((obj) => parse(obj, oid));
      trees.set(oid, entries);
    }
    return entries;
  };
  const walked = new Map<string, Promise<string[]>>();
  const walk = (oid: string, path: readonly string[]): Promise<string[]> => {
    const key = `${oid}|${path.join('/')}`;
    let found = walked.get(key);
    if (!found) {
      found = read(oid).then(async (entries) => {
        const here = path.join('/');
        const hasComposer = entries.some(
          (e) => e.name === 'composer.json' && e.kind !== 'tree' && e.kind !== 'gitlink',
        );
        const own = hasComposer && patterns.some((p) => p.test(here)) ? [here] : [];
        const inside = await Promise.all(
          entries
            .filter((e) => e.kind === 'tree')
            .map((e) => [e, [...path, utf8(e.name)]] as const)
            .filter(([, sub]) => reach.some((r) => r(sub)))
            .map(([e, sub]) => walk(e.oid, sub)),
        );
        return [...own, ...inside.flat()];
      });
      walked.set(key, found);
    }
    return found;
  };
  await Promise.all(
    commits.map(async (commit) => {
      assertRevision(commit);
      const root = await reader.read(`${commit}^{tree}`);
      const entries = parse(root, commit);
      const oid = root!.oid;
      if (!trees.has(oid)) trees.set(oid, Promise.resolve(entries));
      result.set(commit, [...new Set(await walk(oid, []))].sort());
    }),
  );
  return result;
}
