import type { Static, TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { AppError } from '../errors.js';
import { mapError } from '../http/error-mapper.js';

/**
 * Checks a GraphQL input against the very TypeBox schema its REST route validates, so both
 * surfaces accept and refuse the same values, with the same VALIDATION_ERROR details.
 */
export function validateInput<S extends TSchema>(
  schema: S,
  value: unknown,
  field = 'input',
): Static<S> {
  if (Value.Check(schema, value)) return value as Static<S>;
  const validation = [...Value.Errors(schema, value)]
    // TypeBox reports an unknown property twice; the additionalProperties entry names it.
    .filter((e) => e.keyword !== 'boolean')
    .map((e) => {
      const params = e.params as Record<string, unknown>;
      const extra = Array.isArray(params.additionalProperties)
        ? { additionalProperty: String(params.additionalProperties[0]) }
        : {};
      return { instancePath: e.instancePath, message: e.message, params: { ...params, ...extra } };
    });
  const mapped = mapError({ validation, validationContext: field });
  throw new AppError('VALIDATION_ERROR', mapped.body.message, mapped.body.details);
}

/** Drops undefined and null-for-optional keys GraphQL leaves in inputs, like a JSON body would. */
export function compact<T extends Record<string, unknown>>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<T>;
}
