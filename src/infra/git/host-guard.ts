import dns from 'node:dns/promises';
import net from 'node:net';
import { GitError } from './errors.js';
import type { PinnedHost } from './credentials.js';

/**
 * Checks on the git host a `repository_url` names, so an admin cannot use the server to reach
 * hosts on its own networks, and no secret ends up stored in (and shown with) a package.
 */

const URL_FORM = /^([a-z][a-z0-9+.-]*):\/\//i;
const SCP_FORM = /^(?:[^@/\s]+@)?(\[[^\]]+\]|[^:/\s]+):(.+)$/;
const SSH_SCHEMES = new Set(['ssh', 'git+ssh', 'ssh+git']);

export const CREDENTIALS_REFUSED =
  'must not contain credentials (user:password@ or a token before @); connect the host with ' +
  'an OAuth connection (POST /api/v1/oauth/github/initiate, …/gitlab/initiate) or install the ' +
  'GitHub App instead, and Packyard sends the credentials itself';

/** Why `url` carries a secret, or null. `ssh://git@host` and `git@host:…` name an account only. */
export function credentialsProblem(url: string): string | null {
  const scheme = URL_FORM.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined || scheme === 'file') return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.password !== '') return CREDENTIALS_REFUSED;
  if (parsed.username !== '' && !SSH_SCHEMES.has(scheme)) return CREDENTIALS_REFUSED;
  return null;
}

/**
 * `url` without the secret `credentialsProblem` finds in it (the whole user-info part), or `url`
 * itself when it carries none.
 */
export function withoutCredentials(url: string): string {
  if (credentialsProblem(url) === null) return url;
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.toString();
}

/** User-info of any URL inside a text (`scheme://user:secret@`), for texts that are not URLs. */
const USERINFO_IN_TEXT = /\b([a-z][a-z0-9+.-]*:\/\/)[^/\s"'@]+@/gi;

/** `text` with the user-info of every URL in it removed (audit summaries, stored messages). */
export function redactUrlCredentials(text: string): string {
  return text.replace(USERINFO_IN_TEXT, '$1');
}

/** The host a git URL connects to, or null for local repositories (paths, file://). */
export function gitHostOf(url: string): string | null {
  const scheme = URL_FORM.exec(url)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    if (scheme === 'file') return null;
    try {
      return new URL(url).hostname.replace(/^\[|\]$/g, '') || null;
    } catch {
      return null;
    }
  }
  if (url.startsWith('/')) return null;
  const host = SCP_FORM.exec(url)?.[1];
  return host ? host.replace(/^\[|\]$/g, '') : null;
}

const NON_PUBLIC = new net.BlockList();
for (const [network, bits] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  NON_PUBLIC.addSubnet(network, bits, 'ipv4');
}
for (const [network, bits] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  NON_PUBLIC.addSubnet(network, bits, 'ipv6');
}

/** True when `address` is a public unicast address (IPv4-mapped IPv6 judged as its IPv4). */
export function isPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return isPublicAddress(mapped);
  const family = net.isIP(address);
  if (family === 0) return false;
  return !NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export type Lookup = (host: string) => Promise<{ address: string }[]>;

const systemLookup: Lookup = (host) => dns.lookup(host, { all: true, verbatim: true });

/** True for a repository on the server's own disk: `file://…` or an absolute path. */
export function isLocalRepository(url: string): boolean {
  const scheme = URL_FORM.exec(url)?.[1]?.toLowerCase();
  return scheme === undefined ? url.startsWith('/') : scheme === 'file';
}

/**
 * Refuses a repository on a network host that is, or resolves to, a non-public address
 * (BLOCK_PRIVATE_GIT_HOSTS); the refusal names the host. Local repositories (`file://`, absolute
 * paths) have no host to check: ALLOW_LOCAL_REPOSITORIES alone governs them
 * (`assertRepositoryAllowed`), so they pass here. Every address the name resolves to must be
 * public. For an HTTP(S) URL it returns the checked address to pin (mirror.ts), so git cannot
 * resolve the name again to somewhere else; ssh resolves the name itself (docs/configuration.md
 * says so).
 */
export async function assertPublicGitHost(
  url: string,
  lookup: Lookup = systemLookup,
): Promise<PinnedHost | null> {
  if (isLocalRepository(url)) return null;
  const host = gitHostOf(url);
  if (host === null) {
    throw new GitError(`Repository unreachable: ${url} (it names no host)`, {
      kind: 'unreachable',
    });
  }
  let addresses: { address: string }[];
  try {
    addresses = net.isIP(host) ? [{ address: host }] : await lookup(host);
  } catch {
    throw new GitError(`Repository unreachable: ${url}`, { kind: 'unreachable' });
  }
  if (addresses.length === 0 || !addresses.every((a) => isPublicAddress(a.address))) {
    throw new GitError(
      `Repository unreachable: ${url} (the host ${host} is on a private network; ` +
        'hosts on private networks are not allowed)',
      { kind: 'unreachable' },
    );
  }
  return pinFor(url, host, addresses[0]!.address);
}

/**
 * What a sync checks before it fetches: a local repository only when ALLOW_LOCAL_REPOSITORIES is
 * on (whatever BLOCK_PRIVATE_GIT_HOSTS says), a network host with `assertPublicGitHost` when
 * BLOCK_PRIVATE_GIT_HOSTS is on. Returns the address to pin, if any.
 */
export async function assertRepositoryAllowed(
  url: string,
  settings: { allowLocalRepositories: boolean; blockPrivateGitHosts: boolean },
  lookup: Lookup = systemLookup,
): Promise<PinnedHost | null> {
  if (isLocalRepository(url)) {
    if (settings.allowLocalRepositories) return null;
    throw new GitError(
      `Repository unreachable: ${url} (repositories on the server itself are not allowed: ` +
        'ALLOW_LOCAL_REPOSITORIES is off)',
      { kind: 'unreachable' },
    );
  }
  return settings.blockPrivateGitHosts ? assertPublicGitHost(url, lookup) : null;
}

function pinFor(url: string, host: string, address: string): PinnedHost | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  const port = parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
  return { host, port, address };
}
