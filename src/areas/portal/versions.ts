import { notFound } from '../../errors.js';
import type { StoredEntry } from '../../composer/metadata.js';
import { compareVersions, parseStability } from '../../composer/semver/index.js';
import type { VersionGate } from '../../composer/visibility.js';

/** One version entry of a p2 document, as far as the portal reads it. */
export interface Entry {
  version?: unknown;
  version_normalized?: unknown;
  description?: unknown;
  time?: unknown;
  'default-branch'?: unknown;
}

export interface ShownVersion {
  version: string;
  released_at: string | null;
  kind: 'tag' | 'branch';
}

/** What the portal shows of a package's p2 documents, and what it picks the readme by. */
export interface DocVersions {
  description: string | null;
  versions: ShownVersion[];
  /** The version whose README the package page shows (normalized), null when none is visible. */
  newest: string | null;
}

/** The version entries of a p2 answer, rendered (public packages) or not. */
export function entriesOf(
  doc: { body: unknown; rendered?: { body: Buffer } },
  name: string,
): Entry[] | undefined {
  const body = (doc.rendered ? JSON.parse(doc.rendered.body.toString('utf8')) : doc.body) as {
    packages?: Record<string, Entry[]>;
  };
  const entries = body.packages?.[name];
  if (entries !== undefined && !Array.isArray(entries)) throw notFound(`Package ${name}`);
  return entries;
}

/** A stored p2 document's entries that `gate` admits: what the p2 route would answer. */
export function admittedEntries(entries: string | undefined, gate: VersionGate): Entry[] {
  if (entries === undefined) return [];
  return (JSON.parse(entries) as StoredEntry[]).filter((s) => gate.admits(s.n)).map((s) => s.e);
}

/** The versions of both p2 documents, newest tags first, then branches. */
export function docVersions(tags: Entry[] = [], dev: Entry[] = []): DocVersions {
  const described = [...tags, ...dev].find((e) => typeof e.description === 'string');
  const versions = [
    ...tags.map((e) => versionOf(e, 'tag')),
    ...dev.map((e) => versionOf(e, 'branch')),
  ].filter((v) => v.version !== '');
  return {
    description: typeof described?.description === 'string' ? described.description : null,
    versions,
    newest: newestOf(tags, dev),
  };
}

function versionOf(e: Entry, kind: 'tag' | 'branch'): ShownVersion {
  return {
    version: typeof e.version === 'string' ? e.version : '',
    released_at: typeof e.time === 'string' ? e.time : null,
    kind,
  };
}

/**
 * The newest visible version by Composer's ordering: the greatest stable tag; without one, the
 * greatest tag of any stability; without tags, the default branch, else the first branch.
 */
export function newestOf(tags: Entry[], dev: Entry[]): string | null {
  const normalized = (e: Entry) =>
    typeof e.version_normalized === 'string' ? e.version_normalized : null;
  const tagVersions = tags.map(normalized).filter((n): n is string => n !== null);
  const stable = tagVersions.filter((n) => parseStability(n) === 'stable');
  const pool = stable.length > 0 ? stable : tagVersions;
  if (pool.length > 0) return pool.reduce((a, b) => (compareVersions(b, a) > 0 ? b : a));
  const branch = dev.find((e) => e['default-branch'] === true) ?? dev[0];
  return branch ? normalized(branch) : null;
}
