import { AppError } from '../../errors.js';
import type { FieldError } from '../../errors.js';
import type { Db } from '../../infra/db/connection.js';

/** Composer's package name rule (lower-case `vendor/name`). */
export const PACKAGE_NAME_RE = /^[a-z0-9]([_.-]?[a-z0-9]+)*\/[a-z0-9](([_.]|-{1,2})?[a-z0-9]+)*$/;

/** A token package scope: an exact package name or a vendor wildcard `vendor/*`. */
export const PACKAGE_SCOPE_RE =
  /^[a-z0-9]([_.-]?[a-z0-9]+)*\/(\*|[a-z0-9](([_.]|-{1,2})?[a-z0-9]+)*)$/;

/** One VALIDATION_ERROR carrying every field problem; the message names the first. */
export function validationError(details: FieldError[]): AppError {
  const first = details[0] ?? { field: 'body', message: 'is invalid' };
  return new AppError('VALIDATION_ERROR', `${first.field}: ${first.message}`, details);
}

export interface NamedItem {
  name: string;
  field: string;
}

/**
 * Resolves package names (case-insensitive, as in Composer) to ids in one query. Every name that
 * is malformed or not in the registry becomes a field error pushed onto `errors`.
 */
export async function collectPackageIds(
  db: Db,
  tenantId: string,
  items: NamedItem[],
  errors: FieldError[],
): Promise<Map<string, string>> {
  const names = new Set<string>();
  for (const item of items) {
    const name = item.name.toLowerCase();
    if (!PACKAGE_NAME_RE.test(name)) {
      errors.push({ field: item.field, message: 'must be a package name like vendor/name' });
    } else names.add(name);
  }
  const ids = new Map<string, string>();
  if (names.size > 0) {
    const rows = await db
      .selectFrom('packages')
      .select(['id', 'name'])
      .where('tenant_id', '=', tenantId)
      .where('name', 'in', [...names])
      .execute();
    for (const row of rows) ids.set(row.name, row.id);
  }
  for (const item of items) {
    const name = item.name.toLowerCase();
    if (names.has(name) && !ids.has(name)) {
      errors.push({ field: item.field, message: `package ${name} does not exist` });
    }
  }
  return ids;
}

/** collectPackageIds that throws one VALIDATION_ERROR when any name is bad. */
export async function resolvePackageIds(
  db: Db,
  tenantId: string,
  items: NamedItem[],
): Promise<Map<string, string>> {
  const errors: FieldError[] = [];
  const ids = await collectPackageIds(db, tenantId, items, errors);
  if (errors.length > 0) throw validationError(errors);
  return ids;
}

export async function customerExists(db: Db, tenantId: string, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('customers')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

export async function findPackageId(
  db: Db,
  tenantId: string,
  name: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('packages')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('name', '=', name.toLowerCase())
    .executeTakeFirst();
  return row?.id;
}
