import { catFileBatch } from '../../infra/git/catfile.js';
import { readmeBlobOf, type ObjectReader } from '../../infra/git/index.js';
import type { RepositoryRefs } from '../../infra/git/index.js';
import { branchToVersion, tagToVersion } from '../../composer/semver/index.js';
import type { VersionRow } from '../packages/catalog.js';
import { readReadmeTexts, readmeTreeName, type VersionReadme } from './readmes.js';

/** A tag or branch that can become a version (a stored one has no readmeBlob: see readmes.ts). */
export interface Candidate extends VersionReadme {
  ref: string;
  isDev: boolean;
  commit: string;
  version: string;
  normalized: string;
  time: string | null;
  composer: Record<string, unknown>;
  defaultBranch: boolean;
  /**
   * The stored version this ref still is (same version, same commit, same default-branch flag):
   * nothing of it was read again, and `composer` holds what its stored metadata kept of its
   * composer.json (description, abandoned, ...), parsed when first asked for.
   */
  unchanged?: VersionRow;
}

export interface SkippedRef {
  ref: string;
  reason: string;
}

export interface Analysis {
  candidates: Candidate[];
  skipped: SkippedRef[];
}

/** Ref names already turned into versions: a repository's old tags are parsed once a process. */
const parsedRefs = new Map<string, ReturnType<typeof tagToVersion>>();

function versionOf(name: string, isDev: boolean): ReturnType<typeof tagToVersion> {
  const key = `${isDev ? 'b' : 't'}:${name}`;
  let parsed = parsedRefs.get(key);
  if (parsed === undefined && !parsedRefs.has(key)) {
    parsed = isDev ? branchToVersion(name) : tagToVersion(name);
    if (parsedRefs.size >= 200_000) parsedRefs.clear();
    parsedRefs.set(key, parsed);
  }
  return parsed ?? null;
}

/** Committer time of a raw commit object, as ISO 8601. */
function commitTime(raw: string): string | null {
  const match = /^committer .* (\d+) [+-]\d{4}$/m.exec(raw);
  return match?.[1] ? new Date(Number(match[1]) * 1000).toISOString() : null;
}

function parseComposerJson(text: string): Record<string, unknown> | string {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return `composer.json is not valid JSON: ${(err as Error).message}`;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return 'composer.json must hold a JSON object';
  }
  return data as Record<string, unknown>;
}

/**
 * Turns a repository's refs into versions: reads composer.json and the commit of every ref with
 * ONE `git cat-file --batch` process. Refs that cannot become versions are reported, never fatal.
 */
export async function analyzeRefs(
  gitDir: string,
  /** The name composer.json must give; null accepts any name (monorepo children). */
  packageName: string | null,
  refs: RepositoryRefs,
  opts: {
    timeoutMs?: number;
    subdir?: string;
    /** Versions stored by earlier syncs: refs still at their commit are not read again. */
    known?: readonly VersionRow[];
    /** Read through this open reader instead of a `git cat-file` process of its own. */
    reader?: ObjectReader;
  } = {},
): Promise<Analysis> {
  const file = opts.subdir ? `${opts.subdir}/composer.json` : 'composer.json';
  const byNormalized = new Map((opts.known ?? []).map((v) => [v.version_normalized, v]));
  const all = [
    ...refs.tags.map((r) => ({ ...r, isDev: false })),
    ...refs.branches.map((r) => ({ ...r, isDev: true })),
  ].map((r) => {
    const parsed = versionOf(r.name, r.isDev);
    const row = parsed ? byNormalized.get(parsed.normalized) : undefined;
    const isDefault = r.isDev && r.name === refs.defaultBranch;
    const same =
      row !== undefined &&
      row.reference === r.commit &&
      row.version === parsed?.version &&
      (!r.isDev || isDefaultIn(row) === isDefault);
    return { ...r, parsed, unchanged: same ? row : undefined };
  });
  const commits = [...new Set(all.filter((r) => !r.unchanged).map((r) => r.commit))];
  const names = [
    ...commits,
    ...commits.map((c) => `${c}:${file}`),
    ...commits.map((c) => readmeTreeName(c, opts.subdir)),
  ];
  const { reader } = opts;
  const objects = reader
    ? await Promise.all(names.map((name) => reader.read(name)))
    : await catFileBatch(gitDir, names, { timeoutMs: opts.timeoutMs });
  const timeOf = new Map<string, string | null>();
  const composerOf = new Map<string, string | null>();
  const readmeOf = new Map<string, string>();
  // Refs listed from the remote may point at a tree or a blob; like listRefs, skip them silently.
  const notCommits = new Set<string>();
  commits.forEach((commit, i) => {
    const obj = objects[i];
    if (obj && obj.type !== 'commit') notCommits.add(commit);
    timeOf.set(commit, obj?.type === 'commit' ? commitTime(obj.content.toString('utf8')) : null);
    const json = objects[commits.length + i];
    composerOf.set(commit, json?.type === 'blob' ? json.content.toString('utf8') : null);
    readmeOf.set(commit, readmeBlobOf(objects[2 * commits.length + i]));
  });

  const candidates: Candidate[] = [];
  const skipped: SkippedRef[] = [];
  const seen = new Map<string, string>();
  for (const ref of all) {
    if (notCommits.has(ref.commit)) continue;
    const label = ref.isDev ? `branch ${ref.name}` : `tag ${ref.name}`;
    const { parsed, unchanged } = ref;
    if (!parsed) {
      skipped.push({ ref: label, reason: `"${ref.name}" is not a valid version` });
      continue;
    }
    if (unchanged) {
      const previous = seen.get(parsed.normalized);
      if (previous) {
        skipped.push({ ref: label, reason: `same version as ${previous}` });
        continue;
      }
      seen.set(parsed.normalized, label);
      candidates.push(storedCandidate(ref, unchanged, refs.defaultBranch));
      continue;
    }
    const text = composerOf.get(ref.commit);
    if (text === null || text === undefined) {
      skipped.push({ ref: label, reason: `no ${file}` });
      continue;
    }
    const composer = parseComposerJson(text);
    if (typeof composer === 'string') {
      skipped.push({ ref: label, reason: composer });
      continue;
    }
    const name = typeof composer.name === 'string' ? composer.name.toLowerCase() : null;
    if (name === null || (packageName !== null && name !== packageName)) {
      skipped.push({
        ref: label,
        reason: name
          ? `composer.json names "${name}", not "${packageName}"`
          : 'composer.json has no "name"',
      });
      continue;
    }
    const previous = seen.get(parsed.normalized);
    if (previous) {
      skipped.push({ ref: label, reason: `same version as ${previous}` });
      continue;
    }
    seen.set(parsed.normalized, label);
    candidates.push({
      ref: ref.name,
      isDev: ref.isDev,
      commit: ref.commit,
      version: parsed.version,
      normalized: parsed.normalized,
      time: timeOf.get(ref.commit) ?? null,
      composer,
      defaultBranch: ref.isDev && ref.name === refs.defaultBranch,
      readmeBlob: readmeOf.get(ref.commit) ?? '',
    });
  }
  const fresh = candidates.filter((c) => !c.unchanged);
  await readReadmeTexts(gitDir, fresh, opts.known, { reader, timeoutMs: opts.timeoutMs });
  return { candidates, skipped };
}

/** Whether a stored branch version was the default branch (only branches are asked, a few). */
const isDefaultIn = (row: VersionRow): boolean =>
  (JSON.parse(row.metadata) as Record<string, unknown>)['default-branch'] === true;

/** A ref still at its stored version, rebuilt from the row without reading the repository. */
function storedCandidate(
  ref: { name: string; isDev: boolean; commit: string },
  row: VersionRow,
  defaultBranch: string | null,
): Candidate {
  let composer: Record<string, unknown> | null = null;
  return {
    ref: ref.name,
    isDev: ref.isDev,
    commit: ref.commit,
    version: row.version,
    normalized: row.version_normalized,
    time: row.released_at,
    get composer() {
      return (composer ??= JSON.parse(row.metadata) as Record<string, unknown>);
    },
    defaultBranch: ref.isDev && ref.name === defaultBranch,
    unchanged: row,
  };
}
