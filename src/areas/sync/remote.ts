import { GitError } from '../../infra/git/index.js';
import type { GitCredentials } from '../../infra/git/index.js';
import { credentialEnv } from '../../infra/git/index.js';
import { runGit } from '../../infra/git/exec.js';

/** Checks that a URL answers as a git repository, without fetching it. */
export async function checkRemote(
  url: string,
  timeoutMs: number,
  credentials: GitCredentials | null = null,
): Promise<string | null> {
  try {
    await runGit(['ls-remote', '--heads', '--end-of-options', url], {
      timeoutMs,
      env: credentialEnv(url, credentials),
    });
    return null;
  } catch (err) {
    if (err instanceof GitError) return err.message;
    throw err;
  }
}
