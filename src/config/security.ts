import type { Env } from './values.js';
import net from 'node:net';
import { ConfigError } from './error.js';

/** Settings of the security defaults (issue 11), read by loadConfig. */
export interface SecuritySettings {
  /**
   * Proxies whose X-Forwarded-For is believed, as addresses or CIDRs; false = none, the socket's
   * peer is the client (TRUST_PROXY, default off).
   */
  trustProxy: string[] | false;
  /**
   * Refuse git hosts (repository_url) that resolve to private, loopback, link-local or other
   * non-public addresses (BLOCK_PRIVATE_GIT_HOSTS; default on in the Cloud edition, off otherwise).
   * Network hosts only: local repositories are ALLOW_LOCAL_REPOSITORIES's alone.
   */
  blockPrivateGitHosts: boolean;
  /** Failed authentications per client address and window before it is refused; 0 = off (AUTH_FAILURE_LIMIT, default 30). */
  authFailureLimit: number;
  /** The window of AUTH_FAILURE_LIMIT in seconds (AUTH_FAILURE_WINDOW_SECONDS, default 600). */
  authFailureWindowMs: number;
  /** The domain tenants' hosts live under; the Cloud edition needs it (BASE_DOMAIN). */
  baseDomain: string | null;
}

// Names proxy-addr (Fastify's trustProxy) knows for whole ranges.
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  const family = net.isIP(address ?? '');
  if (family === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

function trustProxy(env: Env): string[] | false {
  const raw = env.TRUST_PROXY?.trim() ?? '';
  if (raw === '' || ['off', 'false', '0', 'no'].includes(raw.toLowerCase())) return false;
  if (['on', 'true', '1', 'yes', '*'].includes(raw.toLowerCase())) {
    throw new ConfigError(
      `TRUST_PROXY must list the proxies' addresses or CIDRs (e.g. 127.0.0.1,10.0.0.0/8), not "${raw}": trusting every sender lets any client forge its address`,
    );
  }
  const entries = raw.split(',').map((e) => e.trim());
  const bad = entries.find((e) => !isAddressOrCidr(e));
  if (bad !== undefined) {
    throw new ConfigError(
      `TRUST_PROXY must be off or a comma-separated list of IP addresses or CIDRs, got "${bad}"`,
    );
  }
  return entries;
}

function wholeNumber(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) {
    throw new ConfigError(`${name} must be a whole number >= ${min}, got "${raw}"`);
  }
  return Number(raw);
}

function onOff(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['on', 'true', '1', 'yes'].includes(raw)) return true;
  if (['off', 'false', '0', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name} must be on or off, got "${env[name]}"`);
}

function baseDomain(env: Env, edition: string): string | null {
  const raw = env.BASE_DOMAIN?.trim().toLowerCase() || null;
  const label = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
  if (raw !== null && !new RegExp(`^${label}(?:\\.${label})+$`).test(raw)) {
    throw new ConfigError(
      `BASE_DOMAIN must be a domain name such as packages.example.com, got "${raw}"`,
    );
  }
  if (edition === 'cloud' && raw === null) {
    throw new ConfigError('EDITION=cloud needs BASE_DOMAIN (the domain tenants live under)');
  }
  return raw;
}

export function securitySettings(env: Env, edition: string): SecuritySettings {
  return {
    trustProxy: trustProxy(env),
    blockPrivateGitHosts: onOff(env, 'BLOCK_PRIVATE_GIT_HOSTS', edition === 'cloud'),
    authFailureLimit: wholeNumber(env, 'AUTH_FAILURE_LIMIT', 30),
    authFailureWindowMs: wholeNumber(env, 'AUTH_FAILURE_WINDOW_SECONDS', 600, 1) * 1000,
    baseDomain: baseDomain(env, edition),
  };
}
