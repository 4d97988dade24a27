import type { Static, TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { AppError } from './errors.js';
import type { FieldError } from './errors.js';

/** One schema violation, as Fastify's validator and TypeBox (reshaped below) report it. */
export interface ValidationItem {
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
}

function fieldOf(item: ValidationItem, context: string | undefined): string {
  const base = (item.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  const params = item.params ?? {};
  const extra =
    (typeof params.missingProperty === 'string' && params.missingProperty) ||
    (typeof params.additionalProperty === 'string' && params.additionalProperty) ||
    '';
  const field = [base, extra].filter(Boolean).join('.');
  return field || context || 'body';
}

function validationMessage(item: ValidationItem): string {
  const params = item.params ?? {};
  if (typeof params.additionalProperty === 'string') return 'unknown field';
  return item.message ?? 'is invalid';
}

/**
 * Schema violations as one VALIDATION_ERROR naming each field (docs/api.md), whichever
 * surface found them: REST's route schemas, GraphQL inputs, webhook payloads.
 */
export function validationError(items: ValidationItem[], context?: string): AppError {
  const details: FieldError[] = items.map((item) => ({
    field: fieldOf(item, context),
    message: validationMessage(item),
  }));
  const first = details[0];
  const message = first ? `${first.field}: ${first.message}` : 'Invalid request';
  return new AppError('VALIDATION_ERROR', message, details);
}

/**
 * Checks a value against the very TypeBox schema its REST route validates, so every surface
 * accepts and refuses the same values, with the same VALIDATION_ERROR details.
 */
export function validateInput<S extends TSchema>(
  schema: S,
  value: unknown,
  field = 'input',
): Static<S> {
  if (Value.Check(schema, value)) return value;
  const items = [...Value.Errors(schema, value)]
    // TypeBox reports an unknown property twice; the additionalProperties entry names it.
    .filter((e) => e.keyword !== 'boolean')
    .map((e) => {
      const params = e.params as Record<string, unknown>;
      const extra = Array.isArray(params.additionalProperties)
        ? { additionalProperty: String(params.additionalProperties[0]) }
        : {};
      return { instancePath: e.instancePath, message: e.message, params: { ...params, ...extra } };
    });
  throw validationError(items, field);
}
