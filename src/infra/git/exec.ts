import { startProcess } from './launcher.js';
import { GitError } from './errors.js';
import { currentSignal } from '../abort.js';

export const DEFAULT_TIMEOUT_MS = 120_000;
const STDERR_LIMIT = 64 * 1024;

/** Variables that would point git at another repository or alter what it reads (`git rev-parse --local-env-vars`). */
const LOCAL_ENV_VARS = [
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_CONFIG',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
  'GIT_OBJECT_DIRECTORY',
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_IMPLICIT_WORK_TREE',
  'GIT_GRAFT_FILE',
  'GIT_INDEX_FILE',
  'GIT_NO_REPLACE_OBJECTS',
  'GIT_REPLACE_REF_BASE',
  'GIT_PREFIX',
  'GIT_INTERNAL_SUPER_PREFIX',
  'GIT_SHALLOW_FILE',
  'GIT_COMMON_DIR',
];

/** The environment git runs with: ours passed through (PATH, HOME, proxies), made non-interactive. */
export function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of LOCAL_ENV_VARS) delete env[name];
  return {
    ...env,
    GIT_TERMINAL_PROMPT: '0',
    // Set-but-empty disables askpass entirely; unset would fall back to core.askPass / SSH_ASKPASS.
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
    SSH_ASKPASS_REQUIRE: 'never',
    GCM_INTERACTIVE: 'never',
    GIT_SSH_COMMAND: 'ssh -o BatchMode=yes',
    GIT_LFS_SKIP_SMUDGE: '1',
    // Only the transports a repository URL may name (never ext::, fd:: or other helpers).
    GIT_ALLOW_PROTOCOL: 'http:https:ssh:git:file',
    // Mirrors fetch refs/replace/* too; they must not change what a tag's content looks like.
    GIT_NO_REPLACE_OBJECTS: '1',
    LC_ALL: 'C',
    // git archive writes zip timestamps in local time.
    TZ: 'UTC',
    ...extra,
  };
}

export interface RunOptions {
  /** Runs with `--git-dir=<gitDir>` (no repository discovery). */
  gitDir?: string;
  input?: string | Buffer;
  timeoutMs?: number;
  env?: Record<string, string>;
  /** Exit codes besides 0 that are not failures (e.g. 1 for `symbolic-ref -q`). */
  allowExitCodes?: readonly number[];
  /** Kills the process group once aborted; defaults to the running task's (currentSignal). */
  signal?: AbortSignal;
}

export interface RunResult {
  stdout: Buffer;
  stderr: string;
  exitCode: number;
}

export function runGit(args: readonly string[], opts: RunOptions = {}): Promise<RunResult> {
  const fullArgs = opts.gitDir === undefined ? [...args] : [`--git-dir=${opts.gitDir}`, ...args];
  const label = `git ${args.find((a) => !a.startsWith('-') && !a.includes('=')) ?? ''}`.trim();
  return runProcess('git', fullArgs, label, opts);
}

/**
 * Runs a program (git, or a launcher of many git processes such as xargs) with git's safe
 * environment, its own process group and a timeout that kills the whole group.
 */
export function runProcess(
  program: string,
  fullArgs: readonly string[],
  label: string,
  opts: RunOptions = {},
): Promise<RunResult> {
  const command = [program, ...fullArgs];
  const timeoutMs = Math.max(1, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const signal = opts.signal ?? currentSignal();

  return new Promise<RunResult>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortedError(label, command, signal));
      return;
    }
    // Own process group, so a timeout can kill helpers (git-remote-http, ssh) too; no controlling
    // tty. Started by the git launcher unless GIT_LAUNCHER=off (launcher.ts).
    const child = startProcess(program, fullArgs, {
      env: gitEnv(opts.env),
      stdin: opts.input === undefined ? 'ignore' : 'pipe',
    });
    const stdout: Buffer[] = [];
    let stderr = '';
    let timedOut = false;
    let settled = false;

    let aborted = false;

    const settle = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill();
    }, timeoutMs);
    // The task this runs for stopped (its lease was lost): kill git and its helpers now.
    const onAbort = (): void => {
      aborted = true;
      child.kill();
      settle(() => reject(abortedError(label, command, signal!)));
    };
    signal?.addEventListener('abort', onAbort, { once: true });

    child.on('stdout', (chunk: Buffer) => stdout.push(chunk));
    child.on('stderr', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      if (stderr.length > STDERR_LIMIT) stderr = stderr.slice(-STDERR_LIMIT);
    });
    child.on('error', (err) => {
      settle(() => reject(new GitError(`Failed to run ${label}: ${err.message}`, { command })));
    });
    const onTimeout = (): void =>
      settle(() =>
        reject(
          new GitError(`${label} timed out after ${timeoutMs} ms and was killed`, {
            kind: 'timeout',
            stderr,
            command,
          }),
        ),
      );
    // After a kill, don't wait for 'close': a stray grandchild could hold the pipes open.
    child.on('exit', () => {
      if (timedOut) onTimeout();
    });
    child.on('close', (code) => {
      if (aborted) return;
      if (timedOut) return onTimeout();
      const exitCode = code ?? -1;
      if (exitCode === 0 || opts.allowExitCodes?.includes(exitCode)) {
        settle(() => resolve({ stdout: Buffer.concat(stdout), stderr, exitCode }));
      } else {
        settle(() =>
          reject(
            new GitError(`${label} failed with exit code ${exitCode}`, {
              stderr,
              exitCode,
              command,
            }),
          ),
        );
      }
    });

    // EPIPE when git exits early is ignored; the exit code tells the real story.
    if (opts.input !== undefined) child.end(opts.input);
  });
}

function abortedError(label: string, command: string[], signal: AbortSignal): GitError {
  const reason = signal.reason instanceof Error ? `: ${signal.reason.message}` : '';
  return new GitError(`${label} was stopped${reason}`, { kind: 'aborted', command });
}

/** One time budget shared by several git invocations. */
export class Deadline {
  private readonly end: number;
  constructor(readonly timeoutMs: number = DEFAULT_TIMEOUT_MS) {
    this.end = Date.now() + timeoutMs;
  }
  remaining(): number {
    return Math.max(1, this.end - Date.now());
  }
}

/** Rejects revisions that git could parse as options or that break line-based protocols. */
export function assertRevision(rev: string): void {
  if (rev === '' || rev.startsWith('-') || /[\s\0]/.test(rev)) {
    throw new GitError(`Invalid revision: ${JSON.stringify(rev)}`, { kind: 'invalid-argument' });
  }
}
