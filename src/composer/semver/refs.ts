/** Git tags and branches read as versions, the way Composer's VcsRepository reads them. */
import { parseConstraint } from './parse-constraint.js';
import { END, normalizeBranch, normalizeVersion } from './version.js';

export interface VersionPair {
  /** The pretty version, as Composer shows it. */
  version: string;
  normalized: string;
}

/**
 * A git tag as Composer's VcsRepository reads it (auto-versioned, i.e. no
 * `version` field in composer.json): null when Composer would skip the tag.
 */
export function tagToVersion(tag: string): VersionPair | null {
  const name = tag.split('release-').join('');
  let parsed: string;
  try {
    parsed = normalizeVersion(name);
  } catch {
    return null;
  }
  // Tags may not be dev versions: Composer strips dev markers and then skips the
  // tag because the result no longer matches.
  const stripped = parsed.replace(new RegExp(`(^dev-|[.-]?dev${END})`, 'gi'), '');
  if (stripped !== parsed) return null;
  return { version: name, normalized: parsed };
}

/**
 * A git branch as Composer's VcsRepository reads it: `1.x` → `1.x-dev`, `feature/x`
 * → `dev-feature/x`. Null when the branch name does not survive constraint parsing
 * (Composer skips such branches).
 */
export function branchToVersion(branch: string): VersionPair | null {
  const normalized = normalizeBranch(branch);
  try {
    parseConstraint(normalized);
  } catch {
    return null;
  }
  if (normalized.startsWith('dev-')) {
    return { version: `dev-${branch}`, normalized };
  }
  const prefix = branch.startsWith('v') ? 'v' : '';
  return { version: prefix + normalized.replace(/(\.9999999)+/g, '.x'), normalized };
}
