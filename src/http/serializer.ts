import fastJsonStringify from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';

/**
 * Response serializers (docs/architecture.md, "Response serializers"). fast-json-stringify writes
 * each `anyOf` option as "if an Ajv validator compiled for this option accepts the value", and
 * compiles those validators on a route's first answer: a new server spent 10-30 ms of its first
 * `POST /api/v1/packages` and its first `GET /api/v1/tasks/:id` compiling the options of
 * `Nullable(...)` fields and of literal unions, and every later answer ran them. For writing JSON
 * such a union only needs its types, which fast-json-stringify tells apart with `typeof`; so the
 * schema a serializer is built from says `type: ['string', 'null']` where the documented one
 * says `anyOf: [{type: 'string'}, {type: 'null'}]`. The documented schemas (OpenAPI, request
 * validation) are not touched.
 */

type Schema = Record<string, unknown>;

const SCALARS = new Set(['string', 'number', 'integer', 'boolean', 'null']);
/** Keywords that only constrain a value, which a serializer does not check. */
const CONSTRAINTS = new Set([
  'const',
  'enum',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'pattern',
  'description',
  'title',
  'examples',
]);
const COMBINATORS = ['anyOf', 'oneOf', 'allOf', 'not', 'if', '$ref'];

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The one-type option of a union that `typeof` (or Array.isArray) tells apart, or null. */
function plainOption(option: unknown): (Schema & { type: string }) | null {
  if (!isSchema(option) || typeof option.type !== 'string') return null;
  if (COMBINATORS.some((k) => k in option)) return null;
  return option as Schema & { type: string };
}

/**
 * `anyOf` options as one multi-type schema, or null when two options could not be told apart by
 * type (two object shapes, say): such unions keep their validators.
 */
function mergeOptions(options: unknown[]): Schema | null {
  const byType = new Map<string, Schema[]>();
  for (const raw of options) {
    const option = plainOption(raw);
    if (!option) return null;
    byType.set(option.type, [...(byType.get(option.type) ?? []), option]);
  }
  const merged: Schema = {};
  for (const [type, same] of byType) {
    if (same.length > 1 && !SCALARS.has(type)) return null;
    // Literals of one type (`'a' | 'b'`) write alike; a lone option keeps what shapes its output
    // (a string's format writes a Date, an object's properties, an array's items).
    const shape = same.length === 1 ? same[0]! : { type };
    for (const [key, value] of Object.entries(shape)) {
      if (key === 'type' || CONSTRAINTS.has(key)) continue;
      if (key in merged) return null;
      merged[key] = value;
    }
  }
  const types = [...byType.keys()];
  merged.type = types.length === 1 ? types[0] : types;
  return merged;
}

/** The schema with every union a serializer can write by type made a multi-type schema. */
export function serializableSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(serializableSchema);
  if (!isSchema(schema)) return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] =
      key === 'properties' && isSchema(value)
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, serializableSchema(v)]))
        : serializableSchema(value);
  }
  if (Array.isArray(out.anyOf)) {
    const merged = mergeOptions(out.anyOf);
    if (merged) {
      const { anyOf: _anyOf, ...siblings } = out;
      // A sibling keyword the options also set (a shared description) is the options' business.
      return { ...siblings, ...merged };
    }
  }
  return out;
}

/** Fastify's serializer compiler, over the serializable form of each response schema. */
export const serializerCompiler: FastifySerializerCompiler<unknown> = ({ schema }) =>
  fastJsonStringify(serializableSchema(schema) as Parameters<typeof fastJsonStringify>[0]);
