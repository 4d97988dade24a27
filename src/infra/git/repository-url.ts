import crypto from 'node:crypto';
import { credentialsProblem } from './host-guard.js';

/** Default ports, dropped from the normalised form (any other port is kept). */
const DEFAULT_PORTS: Readonly<Record<string, string>> = {
  http: '80',
  https: '443',
  ssh: '22',
  'git+ssh': '22',
  'ssh+git': '22',
  git: '9418',
};

/** `scheme://…` */
const URL_FORM = /^([a-z][a-z0-9+.-]*):\/\//i;
/** scp-like `[user@]host:path` (git's own rule: a colon before any slash). */
const SCP_FORM = /^(?:[^@/\s]+@)?(\[[^\]]+\]|[^:/\s]+):(.+)$/;

/**
 * One comparable form of a git repository URL: `host[:port]/path`, lower-cased, whatever the
 * way it was written: https and http, `ssh://git@host[:port]/owner/repo`, `git@host:owner/repo`,
 * `git://host/owner/repo`. User info (`user:token@`) and the scheme are dropped, so are the
 * scheme's default port, a trailing `.git` and trailing slashes.
 *
 * The whole form is compared case-insensitively: GitHub, GitLab and Bitbucket treat owner and
 * repository names case-insensitively, and a false match only costs one extra sync.
 *
 * Anything else (a local path, `file://`) is returned trimmed and lower-cased with the same
 * trailing `.git` and `/` removed, so it still equals itself. Empty input gives ''.
 */
export function normalizeRepositoryUrl(url: string): string {
  const text = url.trim();
  if (text === '') return '';
  const scheme = URL_FORM.exec(text)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    if (scheme === 'file') return finish(text);
    let parsed: URL;
    try {
      parsed = new URL(text);
    } catch {
      return finish(text);
    }
    const host = parsed.hostname.toLowerCase();
    if (host === '') return finish(text);
    const port =
      parsed.port !== '' && parsed.port !== DEFAULT_PORTS[scheme] ? `:${parsed.port}` : '';
    return finish(`${host}${port}/${cleanPath(parsed.pathname)}`);
  }
  const scp = SCP_FORM.exec(text);
  // `C:\repo` and `C:/repo` are Windows paths, not hosts.
  if (scp?.[1] !== undefined && scp[2] !== undefined && !/^[a-z]$/i.test(scp[1])) {
    return finish(`${scp[1].toLowerCase()}/${cleanPath(scp[2])}`);
  }
  return finish(text);
}

function cleanPath(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Keep malformed escapes as they are.
  }
  return decoded
    .split('/')
    .filter((part) => part !== '')
    .join('/');
}

function finish(form: string): string {
  let out = form.toLowerCase();
  for (;;) {
    const next = out.replace(/\/+$/, '').replace(/\.git$/, '');
    if (next === out) return out;
    out = next;
  }
}

/** Longer forms are stored as their digest: an index entry has a size limit (PostgreSQL ~2.7 KB). */
const KEY_MAX_BYTES = 512;

/**
 * What `packages.repository_key` holds for `url`: its normalised form, or `sha256:<hex>` of it
 * when that form is longer than 512 bytes (percent-decoding can turn a URL into multibyte text).
 */
export function repositoryKey(url: string): string {
  const form = normalizeRepositoryUrl(url);
  return Buffer.byteLength(form) > KEY_MAX_BYTES
    ? `sha256:${crypto.createHash('sha256').update(form).digest('hex')}`
    : form;
}

/** The repository keys of every URL form in a webhook payload (non-strings and blanks skipped). */
export function repositoryKeys(values: readonly unknown[]): string[] {
  const keys = new Set<string>();
  for (const value of values) {
    if (typeof value !== 'string' || normalizeRepositoryUrl(value) === '') continue;
    keys.add(repositoryKey(value));
  }
  return [...keys];
}

const LOCAL_REFUSED =
  'names a repository on the server itself, which this server does not allow (ALLOW_LOCAL_REPOSITORIES)';

const ALLOWED_SCHEMES = new Set(['http', 'https', 'ssh', 'git', 'git+ssh', 'ssh+git', 'file']);

/**
 * Why `url` cannot be a package's repository, or null when its form is one git clones from:
 * http(s), ssh, git and file URLs, scp-like `git@host:owner/repo`, or an absolute local path.
 * Only the form is checked; whether the repository answers is the first sync's business.
 */
export function repositoryUrlProblem(url: string, allowLocal = true): string | null {
  const explain = 'use https://…, ssh://…, git@host:owner/repo.git, file://… or an absolute path';
  if (url.startsWith('-')) return `is not a git URL; ${explain}`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(url)) return 'must not contain control characters';
  const secret = credentialsProblem(url);
  if (secret) return secret;
  const scheme = URL_FORM.exec(url)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    if (!ALLOWED_SCHEMES.has(scheme)) return `uses the unsupported scheme ${scheme}://; ${explain}`;
    if (scheme === 'file') return allowLocal ? null : LOCAL_REFUSED;
    try {
      if (new URL(url).hostname === '') return `names no host; ${explain}`;
    } catch {
      return `is not a valid URL; ${explain}`;
    }
    return null;
  }
  if (url.startsWith('/')) return allowLocal ? null : LOCAL_REFUSED;
  const scp = SCP_FORM.exec(url);
  if (scp?.[1] !== undefined && !/^[a-z]$/i.test(scp[1]) && !url.includes('::')) return null;
  return `is not a git URL; ${explain}`;
}
