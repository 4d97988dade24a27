import { Ajv } from 'ajv';
import type { Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { invalid } from '../errors.js';

// ajv-formats is CommonJS; under NodeNext its default export is the module object.
declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route reads a non-JSON body itself (and answers 415 to JSON). */
    binaryBody?: boolean;
  }
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function ajvWith(options: Options): Ajv {
  const ajv = new Ajv({
    useDefaults: true,
    removeAdditional: false,
    allErrors: true,
    strict: false,
    ...options,
  });
  addFormats(ajv);
  return ajv;
}

/**
 * JSON bodies are validated as sent: `{"name": true}` is a VALIDATION_ERROR, never the name
 * "true". Query strings and path parameters arrive as text, so only they are coerced.
 */
const bodyAjv = ajvWith({ coerceTypes: false });
const textAjv = ajvWith({ coerceTypes: 'array' });

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object);

// C0 controls other than tab, line feed and carriage return, and DEL.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
// With the u flag a valid surrogate pair is one code point, so this matches only lone halves.
const LONE_SURROGATE = /\p{Cs}/u;

/** Why a string from outside is refused, or null when it is acceptable text. */
export function textProblem(value: string, multiline = true): string | null {
  if (CONTROL.test(value) || (!multiline && /[\t\n\r]/.test(value))) {
    return 'must not contain control characters';
  }
  if (LONE_SURROGATE.test(value)) return 'must be valid Unicode (no lone surrogates)';
  if (value.length > 0 && value.trim() === '') return 'must not be blank';
  return null;
}

const MAX_DEPTH = 64;

function walk(value: unknown, path: string[], part: string): void {
  const field = path.length > 0 ? path.join('.') : part;
  if (typeof value === 'string') {
    // Only JSON bodies hold text that may span lines (descriptions, messages).
    const problem = textProblem(value, part === 'body');
    if (problem) throw invalid(field, problem);
    return;
  }
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return;
  if (path.length > MAX_DEPTH) throw invalid(field, 'is nested too deeply');
  if (Array.isArray(value)) {
    value.forEach((item, i) => walk(item, [...path, String(i)], part));
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    const problem = textProblem(key, false);
    if (problem) throw invalid(field, `field names ${problem}`);
    walk(item, [...path, key], part);
  }
}

/**
 * Every text a client sends (path, query and JSON body) is text a person could have typed:
 * no NUL or other control characters, no lone surrogates, no whitespace-only values.
 */
export function assertCleanInput(request: {
  params: unknown;
  query: unknown;
  body: unknown;
}): void {
  walk(request.params, [], 'path');
  walk(request.query, [], 'query');
  walk(request.body, [], 'body');
}

/**
 * A route that declares no JSON body takes none: fields sent to it are typos or misunderstandings
 * (docs/api.md: unknown fields are rejected), not something to ignore.
 */
export function rejectUndeclaredFields(request: {
  body: unknown;
  routeOptions: { schema?: { body?: unknown }; config: { binaryBody?: boolean } };
}): void {
  const { body, routeOptions } = request;
  if (routeOptions.schema?.body !== undefined || routeOptions.config.binaryBody) return;
  if (body === null || typeof body !== 'object' || Buffer.isBuffer(body)) return;
  const first = Array.isArray(body) ? 'body' : Object.keys(body)[0];
  if (first !== undefined) throw invalid(first, 'unknown field');
}
