import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { GitError } from './errors.js';
import { assertRevision, runProcess } from './exec.js';

const FULL_SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/**
 * Zips of many commits (whole trees), read back as buffers. One xargs process starts the
 * `git archive` runs, `concurrency` at a time: starting a process from Node blocks its event
 * loop for milliseconds each, which for a thousand tags would stall every request. The same
 * settings as archiveZip make the bytes identical to it.
 */
export async function archiveZips(
  dir: string,
  commits: readonly string[],
  opts: { concurrency?: number; timeoutMs?: number } = {},
): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  await archiveZipFiles(dir, commits, opts, async (commit, file) => {
    out.set(commit, await fs.readFile(file));
  });
  return out;
}

/**
 * The same zips as temp files, handed one by one to `visit` (which may stream them anywhere)
 * and removed after: nothing is held in memory.
 */
export async function archiveZipFiles(
  dir: string,
  commits: readonly string[],
  opts: { concurrency?: number; timeoutMs?: number },
  visit: (commit: string, file: string) => Promise<void>,
): Promise<void> {
  const unique = [...new Set(commits)];
  for (const commit of unique) {
    assertRevision(commit);
    if (!FULL_SHA.test(commit)) {
      throw new GitError(`archiveZips needs full commit ids, got ${commit}`, {
        kind: 'invalid-argument',
      });
    }
  }
  if (unique.length === 0) return;
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'packyard-archives-'));
  try {
    await runProcess(
      'xargs',
      [
        '-P',
        String(opts.concurrency ?? Math.max(2, os.availableParallelism())),
        '-I',
        '{}',
        'git',
        `--git-dir=${path.resolve(dir)}`,
        '-c',
        'core.autocrlf=false',
        '-c',
        'core.eol=lf',
        'archive',
        '--format=zip',
        `--output=${work}/{}.zip`,
        '--end-of-options',
        '{}^{commit}',
      ],
      'git archive (batch)',
      { input: unique.join('\n') + '\n', timeoutMs: opts.timeoutMs },
    );
    for (const commit of unique) await visit(commit, path.join(work, `${commit}.zip`));
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}
