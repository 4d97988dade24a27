import fs from 'node:fs/promises';
import path from 'node:path';
import { GitError, type GitErrorKind } from './errors.js';
import { Deadline, runGit, type RunResult } from './exec.js';
import { remoteConfigEnv, type GitCredentials, type PinnedHost } from './credentials.js';
import { readHead, type RepositoryRefs } from './refs.js';
import {
  parseListing,
  readClonedListing,
  readRefFiles,
  refsOfListing,
  type RemoteListing,
} from './ref-files.js';

export interface MirrorOptions {
  /** Budget for the whole operation (all git invocations together). Default 120 s. */
  timeoutMs?: number;
  /** Sent to the repository's origin as HTTP Basic credentials (https URLs only). */
  credentials?: GitCredentials | null;
  /** The checked address git must connect to (BLOCK_PRIVATE_GIT_HOSTS), for HTTP(S) remotes. */
  pin?: PinnedHost | null;
  /**
   * Called once an update of an existing mirror has started its fetch (never for a clone): what
   * the caller would start beside the fetch (another git process) starts then, behind it.
   */
  fetching?: () => void;
}

/**
 * Creates (`git clone --mirror`) or updates a bare mirror of `url` in `dir`. An update lists the
 * remote's refs while one `git fetch --prune` brings what moved (only the new objects: a push of
 * one tag fetches one tag) and deletes what is gone. Answers the mirror's refs when the listing
 * and the mirror agree, or as a clone wrote them (else null: ask listRefs). A failed first clone
 * leaves nothing behind; a
 * failed update leaves the previous mirror as it was.
 */
export async function mirrorRepository(
  url: string,
  dir: string,
  opts: MirrorOptions = {},
): Promise<RepositoryRefs | null> {
  if (url === '' || url.startsWith('-') || /[\s\0]/.test(url)) {
    throw new GitError(`Invalid repository URL: ${JSON.stringify(url)}`, {
      kind: 'invalid-argument',
    });
  }
  const deadline = new Deadline(opts.timeoutMs);
  const target = path.resolve(dir);
  const talk: Remote = { url, deadline, env: remoteConfigEnv(url, opts.credentials, opts.pin) };
  if (await isBareRepository(target)) return updateMirror(talk, target, opts.fetching);
  return cloneMirror(talk, target);
}

export async function isBareRepository(dir: string): Promise<boolean> {
  try {
    const [head, objects, refs] = await Promise.all([
      fs.stat(path.join(dir, 'HEAD')),
      fs.stat(path.join(dir, 'objects')),
      fs.stat(path.join(dir, 'refs')),
    ]);
    return head.isFile() && objects.isDirectory() && refs.isDirectory();
  } catch {
    return false;
  }
}

/** What every command talking to the repository needs. */
interface Remote {
  url: string;
  deadline: Deadline;
  env: Record<string, string>;
}

async function cloneMirror(talk: Remote, target: string): Promise<RepositoryRefs | null> {
  const { url } = talk;
  const parent = path.dirname(target);
  await fs.mkdir(parent, { recursive: true });
  // A sibling, so the final rename stays on one filesystem and is atomic.
  const tmp = await fs.mkdtemp(path.join(parent, `.${path.basename(target)}.tmp-`));
  try {
    const staging = path.join(tmp, 'mirror.git');
    await remote(talk, ['clone', '--mirror', '--quiet', '--', url, staging]);
    // The clone's own ref files list its refs: no `git for-each-ref` needed (null: ask git).
    const listing = await readClonedListing(staging);
    try {
      await fs.rename(staging, target);
      // The commits of every ref, indexed once: each later fetch checks all refs' commits
      // (which it already has) faster. Written in the background; the sync does not need it.
      runGit(['commit-graph', 'write', '--reachable'], {
        gitDir: target,
        timeoutMs: talk.deadline.remaining(),
      }).catch(() => {});
      return listing && refsOfListing(listing);
    } catch (err) {
      // Another sync created it meanwhile: bring that one up to date instead.
      if (await isBareRepository(target)) return updateMirror(talk, target);
      throw new GitError(`Cannot create mirror at ${target}: ${(err as Error).message}`);
    }
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

async function updateMirror(
  talk: Remote,
  gitDir: string,
  fetching?: () => void,
): Promise<RepositoryRefs | null> {
  const { url, deadline } = talk;
  const current =
    (await originUrl(gitDir)) ??
    (
      await runGit(['config', '--get', 'remote.origin.url'], {
        gitDir,
        allowExitCodes: [1],
        timeoutMs: deadline.remaining(),
      })
    ).stdout
      .toString('utf8')
      .trim();
  const setUrl = async (to: string): Promise<void> => {
    const args = current === '' ? ['remote', 'add', '--mirror=fetch'] : ['remote', 'set-url'];
    await runGit([...args, 'origin', to], { gitDir, timeoutMs: deadline.remaining() });
  };
  if (current !== url) await setUrl(url);
  try {
    // One listing (for HEAD and peeled tags) and one fetch of whatever moved, at the same time:
    // a push of one tag costs the slower of the two, not their sum. The fetch, the slower, starts
    // first: starting a process blocks this thread for a while (a fork of the whole server), so
    // each process started before it would delay it by that much.
    const both = Promise.all([
      remote(
        talk,
        ['fetch', '--prune', '--atomic', '--quiet', '--no-write-fetch-head', 'origin'],
        gitDir,
      ),
      remote(talk, ['ls-remote', '--symref', 'origin'], gitDir),
    ]);
    try {
      fetching?.();
    } catch (err) {
      await both.catch(() => {});
      throw err;
    }
    const [, listed] = await both;
    const listing = parseListing(listed.stdout.toString('utf8'));
    await followHead(talk, gitDir, listing.head);
    return await refsIfListed(gitDir, listing);
  } catch (err) {
    // Keep config consistent with the refs we still have.
    if (current !== url && current !== '') await setUrl(current).catch(() => {});
    throw err;
  }
}

/**
 * remote.origin.url read from the mirror's config file ('' when not set), or undefined when the
 * file says anything this plain reading might get wrong (includes, quoting, escapes): then git
 * itself is asked.
 */
async function originUrl(gitDir: string): Promise<string | undefined> {
  const text = await fs.readFile(path.join(gitDir, 'config'), 'utf8').catch(() => null);
  if (text === null || /^\s*\[include/im.test(text)) return undefined;
  let inOrigin = false;
  let found = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      if (!/^\[[A-Za-z0-9.-]+( "[^"\\]*")?\]$/.test(line)) return undefined;
      inOrigin = /^\[remote "origin"\]$/i.test(line);
      continue;
    }
    const m = /^url\s*=\s*(.*)$/i.exec(line);
    if (!inOrigin || !m) continue;
    if (/["\\;#]/.test(m[1]!)) return undefined;
    found = m[1]!;
  }
  return found;
}

/**
 * The refs of `listing` when the mirror now holds exactly them (read from its ref files); null
 * when the remote moved between the listing and the fetch, or the files cannot be read plainly
 * (listRefs must ask git then).
 */
async function refsIfListed(
  gitDir: string,
  listing: RemoteListing,
): Promise<RepositoryRefs | null> {
  const after = await readRefFiles(gitDir);
  const exact =
    after !== null &&
    after.size === listing.refs.size &&
    [...listing.refs].every(([name, oid]) => after.get(name) === oid);
  return exact ? refsOfListing(listing) : null;
}

/** `fetch` never moves a mirror's HEAD; follow the remote's default branch (e.g. master → main). */
async function followHead(talk: Remote, gitDir: string, head: string | null): Promise<void> {
  if (!head) return;
  const { deadline } = talk;
  if ((await readHead(gitDir)) === head) return;
  await runGit(['symbolic-ref', 'HEAD', head], { gitDir, timeoutMs: deadline.remaining() });
}

/** Runs a command that talks to `url`, turning failures into a readable GitError. */
async function remote(
  { url, deadline, env }: Remote,
  args: string[],
  gitDir?: string,
): Promise<RunResult> {
  try {
    return await runGit(args, { gitDir, env, timeoutMs: deadline.remaining() });
  } catch (err) {
    // exitCode null and no timeout: git itself could not be started; nothing to classify.
    if (!(err instanceof GitError) || (err.exitCode === null && err.kind !== 'timeout')) throw err;
    const [kind, summary] = classify(err, url, deadline);
    throw new GitError(summary, {
      kind,
      stderr: err.stderr,
      exitCode: err.exitCode,
      command: err.command,
    });
  }
}

function classify(err: GitError, url: string, deadline: Deadline): [GitErrorKind, string] {
  const s = err.stderr;
  if (err.kind === 'timeout') {
    return ['timeout', `Timed out after ${deadline.timeoutMs} ms while fetching ${url}`];
  }
  if (
    /authentication failed|terminal prompts disabled|could not read (username|password)|permission denied \(|access denied|invalid username or password|returned error: 40[13]/i.test(
      s,
    )
  ) {
    return ['auth', `Authentication failed or required for repository: ${url}`];
  }
  if (
    /could not resolve (host|hostname|proxy)|connection refused|connection timed out|network is unreachable|no route to host|failed to connect|unable to connect|connection reset/i.test(
      s,
    )
  ) {
    return ['unreachable', `Repository unreachable: ${url}`];
  }
  return ['not-found', `Repository not found or not a git repository: ${url}`];
}
