import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { catFileBatch } from './catfile.js';
import { GitError } from './errors.js';
import { Deadline, assertRevision, runGit } from './exec.js';

export interface ArchiveOptions {
  /** Archive only this folder of the commit; its contents end up at the zip root. */
  subdir?: string;
  /** Folder to put the files in inside the zip (a trailing `/` is added). Default: none. */
  prefix?: string;
  /** Budget for the whole operation. Default 120 s. */
  timeoutMs?: number;
}

// Machine-independent content: no eol conversion from the server's global config.
const ARCHIVE_CONFIG = ['-c', 'core.autocrlf=false', '-c', 'core.eol=lf'];

/**
 * `git archive --format=zip` of a commit, byte-identical across runs and re-mirrors: entries carry
 * the commit's committer date (never "now") and timestamps are written in UTC.
 */
export async function archiveZip(
  dir: string,
  commit: string,
  opts: ArchiveOptions = {},
): Promise<Buffer> {
  assertRevision(commit);
  const prefixArgs = opts.prefix ? [`--prefix=${opts.prefix.replace(/\/*$/, '/')}`] : [];
  const subdir = normalizeSubdir(opts.subdir ?? '');
  const gitDir = path.resolve(dir);
  const deadline = new Deadline(opts.timeoutMs);

  if (subdir === '') {
    const { stdout } = await runGit(
      [
        ...ARCHIVE_CONFIG,
        'archive',
        '--format=zip',
        ...prefixArgs,
        '--end-of-options',
        `${commit}^{commit}`,
      ],
      { gitDir, timeoutMs: deadline.remaining() },
    );
    return stdout;
  }
  return archiveSubdir(gitDir, commit, subdir, prefixArgs, deadline);
}

/**
 * git archive of a bare tree id stamps entries with the current time, and git 2.39 has no --mtime.
 * So the subtree is wrapped in a synthetic commit carrying the original committer date; that commit
 * is written to a throwaway object directory so the mirror itself is never modified.
 */
async function archiveSubdir(
  gitDir: string,
  commit: string,
  subdir: string,
  prefixArgs: string[],
  deadline: Deadline,
): Promise<Buffer> {
  const [commitObj, treeObj] = await catFileBatch(
    gitDir,
    [`${commit}^{commit}`, `${commit}^{commit}:${subdir}`],
    { timeoutMs: deadline.remaining() },
  );
  if (commitObj?.type !== 'commit') {
    throw new GitError(`Commit not found: ${commit}`, { kind: 'not-found' });
  }
  if (treeObj?.type !== 'tree') {
    throw new GitError(`Directory ${subdir} not found at commit ${commitObj.oid}`, {
      kind: 'not-found',
    });
  }
  const date = committerDate(commitObj.content);
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'packyard-archive-'));
  try {
    const objects = path.join(tmp, 'objects');
    await fs.mkdir(objects);
    const env = {
      GIT_OBJECT_DIRECTORY: objects,
      GIT_ALTERNATE_OBJECT_DIRECTORIES: path.join(gitDir, 'objects'),
      GIT_AUTHOR_NAME: 'Packyard',
      GIT_AUTHOR_EMAIL: 'packyard@localhost',
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_NAME: 'Packyard',
      GIT_COMMITTER_EMAIL: 'packyard@localhost',
      GIT_COMMITTER_DATE: date,
    };
    const synthetic = await runGit(
      [
        '-c',
        'i18n.commitEncoding=UTF-8',
        'commit-tree',
        '--no-gpg-sign',
        '-m',
        `${commitObj.oid}:${subdir}`,
        treeObj.oid,
      ],
      { gitDir, env, timeoutMs: deadline.remaining() },
    );
    const syntheticOid = synthetic.stdout.toString('utf8').trim();
    const { stdout } = await runGit(
      [
        ...ARCHIVE_CONFIG,
        'archive',
        '--format=zip',
        ...prefixArgs,
        '--end-of-options',
        syntheticOid,
      ],
      { gitDir, env, timeoutMs: deadline.remaining() },
    );
    return stdout;
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

export function normalizeSubdir(subdir: string): string {
  const parts = subdir.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.some((p) => p === '..') || /[\n\0]/.test(subdir)) {
    throw new GitError(`Invalid subdirectory: ${JSON.stringify(subdir)}`, {
      kind: 'invalid-argument',
    });
  }
  return parts.join('/');
}

/** `@<epoch> <tz>` from the commit's committer line, as GIT_COMMITTER_DATE accepts it. */
function committerDate(commitContent: Buffer): string {
  const header = commitContent.toString('utf8').split('\n\n', 1)[0] ?? '';
  const m = /^committer .* (\d+) ([+-]\d{4})$/m.exec(header);
  if (!m) throw new GitError('Commit has no parseable committer date');
  return `@${m[1]} ${m[2]}`;
}
