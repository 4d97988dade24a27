export type GitErrorKind =
  'timeout' | 'not-found' | 'unreachable' | 'auth' | 'invalid-argument' | 'failed' | 'aborted';

export interface GitErrorDetails {
  kind?: GitErrorKind;
  stderr?: string;
  exitCode?: number | null;
  command?: readonly string[];
}

/** A failed git operation. Message, stderr and command are already credential-redacted. */
export class GitError extends Error {
  readonly kind: GitErrorKind;
  readonly stderr: string;
  readonly exitCode: number | null;
  readonly command: readonly string[];

  constructor(summary: string, details: GitErrorDetails = {}) {
    const stderr = redactCredentials(details.stderr ?? '').trim();
    const tail = stderrTail(stderr);
    super(redactCredentials(tail ? `${summary}\n${tail}` : summary));
    this.name = 'GitError';
    this.kind = details.kind ?? 'failed';
    this.stderr = stderr;
    this.exitCode = details.exitCode ?? null;
    this.command = (details.command ?? []).map(redactCredentials);
  }
}

const TAIL_LINES = 5;

function stderrTail(stderr: string): string {
  const lines = stderr
    .split(/\r?\n|\r/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  return lines.slice(-TAIL_LINES).join('\n');
}

// Greedy up to the last '@' before the first '/', so passwords containing '@' are covered too.
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/]*)@/gi;
const SSH_SCHEMES = new Set(['ssh://', 'git+ssh://', 'ssh+git://']);

/** Replaces `user:pass@` (and bare tokens) in any URL inside `text` with `***@`. */
export function redactCredentials(text: string): string {
  return text.replace(URL_USERINFO, (match, scheme: string, userinfo: string) => {
    // `ssh://git@host` names an account, not a secret.
    if (SSH_SCHEMES.has(scheme.toLowerCase()) && !userinfo.includes(':')) return match;
    return `${scheme}***@`;
  });
}
