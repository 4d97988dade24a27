import type { Env } from './values.js';
/** Settings of the proxy of a public Composer repository (docs/proxy.md). */
export interface ProxySettings {
  /** Upstream Composer v2 repository, no trailing slash; null = off (PROXY_UPSTREAM_URL, default https://repo.packagist.org, `off` disables). */
  upstreamUrl: string | null;
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
  return {
    upstreamUrl: off ? null : read.baseOf(env, 'PROXY_UPSTREAM_URL', 'https://repo.packagist.org'),
    metadataTtlSeconds: read.integer(env, 'PROXY_METADATA_TTL_SECONDS', 300),
    visibility,
    timeoutMs: read.integer(env, 'PROXY_TIMEOUT_SECONDS', 5, 1) * 1000,
    maxDocumentBytes: read.integer(env, 'PROXY_MAX_DOCUMENT_BYTES', 16 * 1024 * 1024, 1024),
    maxArchiveBytes: read.integer(env, 'PROXY_MAX_ARCHIVE_BYTES', 256 * 1024 * 1024, 1024),
  };
}
