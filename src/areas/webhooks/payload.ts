import { invalid } from '../../errors.js';

/** A plain JSON object, or null. */
export function objectOrNull(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** The object at `path` below `value`, or null when any step is missing or not an object. */
export function objectAt(value: unknown, ...path: string[]): Record<string, unknown> | null {
  let current = objectOrNull(value);
  for (const key of path) {
    if (current === null) return null;
    current = objectOrNull(current[key]);
  }
  return current;
}

/** The string fields `keys` of `object`, skipping missing and non-string ones. */
export function stringsOf(
  object: Record<string, unknown> | null,
  keys: readonly string[],
): string[] {
  if (object === null) return [];
  return keys
    .map((key) => object[key])
    .filter((v): v is string => typeof v === 'string' && v !== '');
}

/**
 * The repository URLs a signed payload names; a payload naming none is malformed (400
 * VALIDATION_ERROR, recorded as a failed delivery), never a crash.
 */
export function requireUrls(urls: string[], field: string): string[] {
  if (urls.length === 0) throw invalid(field, 'the payload names no repository URL');
  return urls;
}
