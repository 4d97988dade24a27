import type { FieldError } from '../../errors.js';
import { parseConstraint } from '../../composer/semver/index.js';

export const DEFAULT_CONSTRAINT = '*';

/** Composer's own parser decides; its message is the one the caller sees. */
export function constraintError(field: string, constraint: string): FieldError | null {
  try {
    parseConstraint(constraint);
    return null;
  } catch (err) {
    return { field, message: err instanceof Error ? err.message : String(err) };
  }
}
