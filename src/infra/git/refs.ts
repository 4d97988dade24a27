import fs from 'node:fs/promises';
import path from 'node:path';
import { catFileBatch } from './catfile.js';
import { runGit } from './exec.js';

export interface GitRef {
  name: string;
  commit: string;
}

export interface RepositoryRefs {
  tags: GitRef[];
  branches: GitRef[];
  /** Branch HEAD points at; null if HEAD is detached or points at a branch that does not exist. */
  defaultBranch: string | null;
}

const FORMAT = '%(objectname) %(objecttype) %(*objectname) %(*objecttype) %(refname)';

/** Tags (peeled to commits) and branches of a mirror. Refs not pointing at commits are skipped. */
export async function listRefs(
  dir: string,
  opts: { timeoutMs?: number } = {},
): Promise<RepositoryRefs> {
  const headOf = async () =>
    (await readHead(dir)) ??
    (
      await runGit(['symbolic-ref', '-q', 'HEAD'], {
        gitDir: dir,
        timeoutMs: opts.timeoutMs,
        allowExitCodes: [1],
      })
    ).stdout
      .toString('utf8')
      .trim();
  const [refsOut, head] = await Promise.all([
    runGit(['for-each-ref', `--format=${FORMAT}`, 'refs/heads', 'refs/tags'], {
      gitDir: dir,
      timeoutMs: opts.timeoutMs,
    }),
    headOf(),
  ]);

  const tags: GitRef[] = [];
  const branches: GitRef[] = [];
  // Tags of tags: git < 2.42 peels `%(*...)` one level only, so those are resolved afterwards.
  const nested: { name: string; tagOid: string }[] = [];

  for (const line of refsOut.stdout.toString('utf8').split('\n')) {
    if (line === '') continue;
    const [oid = '', type, peeled = '', peeledType, ...rest] = line.split(' ');
    const refname = rest.join(' ');
    if (refname.startsWith('refs/heads/')) {
      if (type === 'commit') branches.push({ name: refname.slice(11), commit: oid });
    } else if (refname.startsWith('refs/tags/')) {
      const name = refname.slice(10);
      if (type === 'commit') tags.push({ name, commit: oid });
      else if (type === 'tag' && peeledType === 'commit') tags.push({ name, commit: peeled });
      else if (type === 'tag' && peeledType === 'tag') nested.push({ name, tagOid: peeled });
    }
  }

  if (nested.length > 0) {
    const objects = await catFileBatch(
      dir,
      nested.map((n) => `${n.tagOid}^{commit}`),
      opts,
    );
    nested.forEach((n, i) => {
      const obj = objects[i];
      if (obj?.type === 'commit') tags.push({ name: n.name, commit: obj.oid });
    });
    tags.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  const headBranch = head.startsWith('refs/heads/') ? head.slice(11) : null;
  const defaultBranch =
    headBranch !== null && branches.some((b) => b.name === headBranch) ? headBranch : null;

  return { tags, branches, defaultBranch };
}

/**
 * The ref HEAD names, read from the mirror's HEAD file (a bare mirror made by `git clone` keeps
 * it there); null when HEAD is detached or the file says something else.
 */
export async function readHead(gitDir: string): Promise<string | null> {
  const text = await fs.readFile(path.join(gitDir, 'HEAD'), 'utf8').catch(() => '');
  return /^ref: (refs\/\S+)\n?$/.exec(text)?.[1] ?? null;
}
