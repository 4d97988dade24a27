import { invalid } from '../../errors.js';
import { normalizeVersion } from '../../composer/semver/index.js';

/** The normalized form of a version given in a path or payload. */
export function normalizedOrInvalid(version: string, field = 'version'): string {
  try {
    return normalizeVersion(version);
  } catch (err) {
    throw invalid(field, (err as Error).message);
  }
}

/** Validates monorepo folder globs: relative, no `..`, no duplicates; returns them normalized. */
export function checkMonorepoPaths(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of paths) {
    const glob = raw
      .trim()
      .replace(/^(\.\/)+/, '')
      .replace(/\/+$/, '');
    if (glob === '' || glob === '.')
      throw invalid('monorepo.paths', 'must name folders below the root');
    if (glob.startsWith('/') || glob.includes('\\') || /[\0\n\r]/.test(glob)) {
      throw invalid('monorepo.paths', `"${raw}" must be a relative folder glob`);
    }
    if (glob.split('/').some((part) => part === '..' || part === '')) {
      throw invalid('monorepo.paths', `"${raw}" must not contain ".." or empty segments`);
    }
    if (!out.includes(glob)) out.push(glob);
  }
  return out;
}
