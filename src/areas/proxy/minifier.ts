/** One version entry of a p2 document. */
export type UpstreamEntry = Record<string, unknown>;

/**
 * Expands one package's minified version list the way Composer's MetadataMinifier::expand does
 * (composer/metadata-minifier): the first entry is whole; each later entry holds only the keys
 * that differ from the entry before it, and the value "__unset" removes a key. An entry that is
 * empty (PHP's falsy array) while nothing is expanded yet starts the chain again.
 */
export function expandVersions(versions: readonly UpstreamEntry[]): UpstreamEntry[] {
  const expanded: UpstreamEntry[] = [];
  let current: UpstreamEntry | null = null;
  for (const data of versions) {
    if (!current || Object.keys(current).length === 0) {
      current = { ...data };
      expanded.push(current);
      continue;
    }
    const next: UpstreamEntry = { ...current };
    for (const [key, value] of Object.entries(data)) {
      if (value === '__unset') delete next[key];
      else next[key] = value;
    }
    current = next;
    expanded.push(next);
  }
  return expanded;
}

/**
 * The version lists of a p2 document, expanded when it says `"minified": "composer/2.0"`.
 * Throws on anything that is not a p2 document (the caller treats that as an upstream failure).
 */
export function readP2Document(doc: unknown): Map<string, UpstreamEntry[]> {
  if (!isObject(doc) || !isObject(doc.packages)) throw new Error('no "packages" object');
  const minified = doc.minified;
  if (minified !== undefined && minified !== 'composer/2.0') {
    throw new Error(`unknown minification ${JSON.stringify(minified)}`);
  }
  const out = new Map<string, UpstreamEntry[]>();
  for (const [name, list] of Object.entries(doc.packages)) {
    if (!Array.isArray(list) || !list.every(isObject)) {
      throw new Error(`the versions of ${name} are not a list of objects`);
    }
    out.set(name.toLowerCase(), minified ? expandVersions(list) : list);
  }
  return out;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
