import { normalizeVersion } from '../../composer/semver/index.js';
import { VersionGate } from '../../composer/visibility.js';
import type { RenderedDocument } from './rendered-document.js';
import { render } from './rendered-document.js';

/** The normalized version of a served p2 entry, or null when it has none Composer would read. */
function normalizedOf(entry: Record<string, unknown>): string | null {
  if (typeof entry.version_normalized === 'string') return entry.version_normalized;
  if (typeof entry.version !== 'string') return null;
  try {
    return normalizeVersion(entry.version);
  } catch {
    return null;
  }
}

/**
 * A public p2 document as one customer sees it under PROXY_VISIBILITY=granted: the versions its
 * grant's constraint admits, and a Last-Modified no earlier than the grant and the tenant's
 * access-change stamp (so a changed constraint is never answered 304).
 */
export function grantedDocument(
  doc: RenderedDocument,
  name: string,
  grant: { constraint: string; granted_at: string },
  stampMs: number,
): RenderedDocument {
  const body = JSON.parse(doc.body.toString('utf8')) as {
    packages: Record<string, Record<string, unknown>[]>;
  };
  const entries = body.packages[name] ?? [];
  const gate = VersionGate.of([grant.constraint]);
  const shown = entries.filter((entry) => {
    const normalized = normalizedOf(entry);
    return normalized !== null && gate.admits(normalized);
  });
  const lastModified = Math.max(doc.lastModifiedMs, Date.parse(grant.granted_at) || 0, stampMs);
  return {
    ...render({ ...body, packages: { [name]: shown } }, new Date(lastModified)),
    onServe: doc.onServe,
  };
}
