import { catFileBatch } from '../../infra/git/catfile.js';
import type { RepositoryRefs } from '../../infra/git/index.js';
import { branchToVersion, tagToVersion } from '../../composer/semver/index.js';

/** A tag or branch that can become a version. */
export interface Candidate {
  ref: string;
  isDev: boolean;
  commit: string;
  version: string;
  normalized: string;
  time: string | null;
  composer: Record<string, unknown>;
  defaultBranch: boolean;
}

export interface SkippedRef {
  ref: string;
  reason: string;
}

export interface Analysis {
  candidates: Candidate[];
  skipped: SkippedRef[];
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
  opts: { timeoutMs?: number; subdir?: string } = {},
): Promise<Analysis> {
  const file = opts.subdir ? `${opts.subdir}/composer.json` : 'composer.json';
  const all = [
    ...refs.tags.map((r) => ({ ...r, isDev: false })),
    ...refs.branches.map((r) => ({ ...r, isDev: true })),
  ];
  const commits = [...new Set(all.map((r) => r.commit))];
  const objects = await catFileBatch(gitDir, [...commits, ...commits.map((c) => `${c}:${file}`)], {
    timeoutMs: opts.timeoutMs,
  });
  const timeOf = new Map<string, string | null>();
  const composerOf = new Map<string, string | null>();
  commits.forEach((commit, i) => {
    const obj = objects[i];
    timeOf.set(commit, obj?.type === 'commit' ? commitTime(obj.content.toString('utf8')) : null);
    const json = objects[commits.length + i];
    composerOf.set(commit, json?.type === 'blob' ? json.content.toString('utf8') : null);
  });

  const candidates: Candidate[] = [];
  const skipped: SkippedRef[] = [];
  const seen = new Map<string, string>();
  for (const ref of all) {
    const label = ref.isDev ? `branch ${ref.name}` : `tag ${ref.name}`;
    const parsed = ref.isDev ? branchToVersion(ref.name) : tagToVersion(ref.name);
    if (!parsed) {
      skipped.push({ ref: label, reason: `"${ref.name}" is not a valid version` });
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
    });
  }
  return { candidates, skipped };
}
