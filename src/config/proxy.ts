import type { Env } from './values.js';
/** Settings of the proxy of a public Composer repository (docs/proxy.md). */
export interface ProxySettings {
  /** Upstream Composer v2 repository, no trailing slash and no credentials; null = off (PROXY_UPSTREAM_URL, default https://repo.packagist.org, `off` disables). */
  upstreamUrl: string | null;
  /** The credentials of PROXY_UPSTREAM_URL (`https://token:SECRET@host`), sent as HTTP Basic to the upstream's host only; never shown (see `maskedUpstreamUrl`). */
  upstreamCredentials: UpstreamCredentials | null;
  /** Kept metadata is revalidated upstream after this many seconds (PROXY_METADATA_TTL_SECONDS, default 300). */
  metadataTtlSeconds: number;
  /** all: every valid customer token sees public packages; granted: only granted ones (PROXY_VISIBILITY, default all). */
  visibility: ProxyVisibility;
  /** An upstream silent this long (no answer, or no bytes of a body) has failed (PROXY_TIMEOUT_SECONDS, default 5). */
  timeoutMs: number;
  /** Largest accepted upstream metadata document in bytes (PROXY_MAX_DOCUMENT_BYTES, default 16 MiB). */
  maxDocumentBytes: number;
  /** Largest accepted upstream archive in bytes (PROXY_MAX_ARCHIVE_BYTES, default 256 MiB). */
  maxArchiveBytes: number;
}

export type ProxyVisibility = 'all' | 'granted';

export interface UpstreamCredentials {
  username: string;
  password: string;
}

/** The readers config.ts validates every setting with, so the proxy's fail the same way. */
export interface SettingReaders {
  integer(env: Env, name: string, fallback: number, min?: number): number;
  baseOf(env: Env, name: string, fallback: string): string;
  fail(message: string): Error;
}

export function proxySettings(env: Env, read: SettingReaders): ProxySettings {
  const raw = env.PROXY_UPSTREAM_URL;
  const off = raw !== undefined && raw.trim().toLowerCase() === 'off';
  const visibility = (env.PROXY_VISIBILITY || 'all').toLowerCase();
  if (visibility !== 'all' && visibility !== 'granted') {
    throw read.fail(`PROXY_VISIBILITY must be all or granted, got "${env.PROXY_VISIBILITY}"`);
  }
  const upstream = off ? null : upstreamOf(raw, read);
  return {
    upstreamUrl: upstream?.url ?? null,
    upstreamCredentials: upstream?.credentials ?? null,
    metadataTtlSeconds: read.integer(env, 'PROXY_METADATA_TTL_SECONDS', 300),
    visibility,
    timeoutMs: read.integer(env, 'PROXY_TIMEOUT_SECONDS', 5, 1) * 1000,
    maxDocumentBytes: read.integer(env, 'PROXY_MAX_DOCUMENT_BYTES', 16 * 1024 * 1024, 1024),
    maxArchiveBytes: read.integer(env, 'PROXY_MAX_ARCHIVE_BYTES', 256 * 1024 * 1024, 1024),
  };
}

/**
 * PROXY_UPSTREAM_URL split into the URL requests go to and its credentials (another Packyard as
 * upstream needs a customer token: `https://token:pkt_…@packages.example.com`). No message
 * repeats a value that holds credentials.
 */
function upstreamOf(
  raw: string | undefined,
  read: SettingReaders,
): { url: string; credentials: UpstreamCredentials | null } {
  const value = raw?.trim() || 'https://repo.packagist.org';
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    const shown = value.includes('@') ? 'a value with credentials' : `"${value}"`;
    throw read.fail(`PROXY_UPSTREAM_URL must be a URL, got ${shown}`);
  }
  const credentials =
    parsed.username || parsed.password
      ? {
          username: decodeURIComponent(parsed.username),
          password: decodeURIComponent(parsed.password),
        }
      : null;
  parsed.username = '';
  parsed.password = '';
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw read.fail(`PROXY_UPSTREAM_URL must start with http: or https:, got "${parsed.href}"`);
  }
  return { url: parsed.href.replace(/\/+$/, ''), credentials };
}

/**
 * The upstream URL as status, alerts, events and logs show it: the secret masked
 * (`https://token:***@host`), or the whole user part when there is no password.
 */
export function maskedUpstreamUrl(
  settings: Pick<ProxySettings, 'upstreamUrl' | 'upstreamCredentials'>,
): string | null {
  const { upstreamUrl, upstreamCredentials: credentials } = settings;
  if (upstreamUrl === null || credentials === null) return upstreamUrl;
  const url = new URL(upstreamUrl);
  const user = credentials.password ? `${encodeURIComponent(credentials.username)}:***` : '***';
  return upstreamUrl.replace(`${url.protocol}//`, `${url.protocol}//${user}@`);
}
