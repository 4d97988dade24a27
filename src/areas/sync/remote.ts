import { GitError } from '../../infra/git/index.js';
import { runGit } from '../../infra/git/exec.js';

/** Checks that a URL answers as a git repository, without fetching it. */
export async function checkRemote(url: string, timeoutMs: number): Promise<string | null> {
  try {
    await runGit(['ls-remote', '--heads', '--end-of-options', url], { timeoutMs });
    return null;
  } catch (err) {
    if (err instanceof GitError) return err.message;
    throw err;
  }
}
