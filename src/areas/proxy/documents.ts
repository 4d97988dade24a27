import { normalizeVersion } from '../../composer/semver/index.js';
import { isObject } from './minifier.js';
import type { UpstreamEntry } from './minifier.js';
import type { ProxyVersionRow } from './store.js';

/** Composer's package name rule (ValidatingArrayLoader), lower case: nothing else is asked upstream. */
const PACKAGE_NAME = /^[a-z0-9](?:[_.-]?[a-z0-9]+)*\/[a-z0-9](?:(?:[_.]|-{1,2})?[a-z0-9]+)*$/;
const REFERENCE = /^[A-Za-z0-9._-]{1,255}$/;

export function isPackageName(name: string): boolean {
  return name.length <= 255 && PACKAGE_NAME.test(name);
}

export function isReference(reference: string): boolean {
  return REFERENCE.test(reference) && reference !== '.' && reference !== '..';
}

/** The normalized version of an entry (as given, or computed like Composer would), or null. */
function normalizedOf(entry: UpstreamEntry): string | null {
  if (typeof entry.version !== 'string') return null;
  if (typeof entry.version_normalized === 'string') return entry.version_normalized;
  try {
    return normalizeVersion(entry.version);
  } catch {
    return null;
  }
}

/** A zip dist Packyard can serve through /dist-proxy: an upstream URL and a path-safe reference. */
function proxiedDist(entry: UpstreamEntry): { url: string; reference: string } | null {
  const dist = entry.dist;
  if (!isObject(dist) || dist.type !== 'zip') return null;
  if (typeof dist.url !== 'string' || typeof dist.reference !== 'string') return null;
  if (!isReference(dist.reference) || !/^https?:\/\//i.test(dist.url)) return null;
  return { url: dist.url, reference: dist.reference };
}

/** The entries of one package worth keeping (those with a version), each named. */
export function keptEntries(name: string, list: UpstreamEntry[]): UpstreamEntry[] {
  return list
    .filter((e) => normalizedOf(e) !== null)
    .map((e) => ({ ...e, name, version_normalized: normalizedOf(e) }));
}

/** The version rows behind /dist-proxy for kept entries. */
export function versionRows(tenantId: string, name: string, entries: UpstreamEntry[]) {
  const rows: Omit<ProxyVersionRow, 'archive_key' | 'archive_size' | 'archived_at'>[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    const dist = proxiedDist(entry);
    const normalized = normalizedOf(entry);
    if (!dist || !normalized) continue;
    const key = `${normalized}\n${dist.reference}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const shasum = isObject(entry.dist) ? entry.dist.shasum : null;
    rows.push({
      tenant_id: tenantId,
      name,
      version: String(entry.version),
      version_normalized: normalized,
      reference: dist.reference,
      dist_url: dist.url,
      shasum: typeof shasum === 'string' && /^[0-9a-f]{40}$/i.test(shasum) ? shasum : null,
    });
  }
  return rows;
}

export function distProxyPath(name: string, normalized: string, reference: string): string {
  return `/dist-proxy/${name}/${encodeURIComponent(normalized)}/${reference}.zip`;
}

/**
 * The entries as customers get them: zip dist URLs point at Packyard's /dist-proxy; `shasum`,
 * `source` and everything else stay as the upstream gave them.
 */
export function servedEntries(name: string, entries: UpstreamEntry[], baseUrl: string) {
  return entries.map((entry) => {
    const dist = proxiedDist(entry);
    const normalized = normalizedOf(entry);
    if (!dist || !normalized || !isObject(entry.dist)) return entry;
    return {
      ...entry,
      dist: { ...entry.dist, url: baseUrl + distProxyPath(name, normalized, dist.reference) },
    };
  });
}
