import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, createTestApp } from '../../test/helpers.js';
import type { TestApp } from '../../test/helpers.js';
import { sql } from 'kysely';
import { ERROR_STATUS } from '../errors.js';

/**
 * Malformed requests for every operation of our own OpenAPI document (read at run time, so new
 * routes are covered without edits), the Composer routes and the webhook routes: never a 5xx,
 * always the contract's error body, and a refused request changes nothing. Bounded and seeded:
 * FUZZ_SEED=<n> replays a failure (fast-check prints the seed and the shrunk request).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 2500);

interface Operation {
  method: string;
  path: string;
  query: string[];
  body: string[];
}

/** Tables a refused request must leave as they were. */
const STATE_TABLES = [
  'customers',
  'customer_tokens',
  'team_tokens',
  'packages',
  'versions',
  'grants',
  'collections',
  'collection_packages',
  'frozen_versions',
  'tasks',
  'audit_log',
  'monorepos',
  'webhook_deliveries',
  'webhook_receipts',
  'oauth_connections',
  'oauth_states',
  'settings',
] as const;

let t: TestApp;
let operations: Operation[];
let ids: string[];
let customerAuth: string;

/** Row counts of STATE_TABLES and the fields refused writes could touch, in one query each. */
async function snapshot(): Promise<string> {
  const db = t.db;
  const counts = sql.join(
    STATE_TABLES.map((table) => sql`(select count(*) from ${sql.table(table)})`),
    sql`, `,
  );
  const parts: unknown[] = [(await sql`select ${counts}`.execute(db)).rows];
  parts.push(await db.selectFrom('customers').selectAll().orderBy('id').execute());
  parts.push(
    await db.selectFrom('versions').select(['id', 'yanked', 'deprecated']).orderBy('id').execute(),
  );
  return JSON.stringify(parts);
}

beforeAll(async () => {
  t = await createTestApp({
    WORKER: 'off',
    AUTH_FAILURE_LIMIT: '0',
    RATE_LIMIT_ADMIN_PER_MINUTE: '0',
    RATE_LIMIT_COMPOSER_PER_MINUTE: '0',
  });
  const api = async (method: 'POST', url: string, payload: object) => {
    const res = await t.app.inject({ method, url, headers: t.admin, payload });
    if (res.statusCode >= 400) throw new Error(`${url}: ${res.body}`);
    return res.json();
  };
  const customer = await api('POST', '/api/v1/customers', {
    name: 'Fuzz',
    email: 'f@example.test',
  });
  await api('POST', '/api/v1/packages', { name: 'acme/art', type: 'artifact' });
  const token = await api('POST', `/api/v1/customers/${customer.id}/tokens`, {
    name: 'ci',
    scope: 'admin',
  });
  customerAuth = basicAuth(token.plain_token);
  ids = [customer.id, token.token.id, 'acme', 'art', '1.0.0'];

  const doc: {
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: { in: string; name: string }[];
          requestBody?: {
            content?: Record<string, { schema?: { properties?: Record<string, unknown> } }>;
          };
        }
      >
    >;
  } = (await t.app.inject({ url: '/api/openapi.json' })).json();
  operations = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const query = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      const schema = op.requestBody?.content?.['application/json']?.schema;
      operations.push({
        method: method.toUpperCase(),
        path,
        query,
        body: Object.keys(schema?.properties ?? {}),
      });
    }
  }
  // Routes outside the document: the Composer surface and inbound webhooks.
  for (const path of [
    '/packages.json',
    '/p2/{vendor}/{name}.json',
    '/dists/{vendor}/{name}/{file}',
  ]) {
    operations.push({ method: 'GET', path, query: [], body: [] });
  }
  operations.push({
    method: 'POST',
    path: '/api/security-advisories/',
    query: [],
    body: ['packages'],
  });
  for (const provider of ['github', 'gitlab', 'bitbucket', 'hostapp', 'payment']) {
    operations.push({
      method: 'POST',
      path: `/api/webhooks/${provider}`,
      query: [],
      body: ['repository', 'ref'],
    });
  }
}, 60_000);
afterAll(async () => t.close());

/** Text a client could send: tricky characters, numbers as text, huge values, real ids. */
const text = () =>
  fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.string({ unit: 'binary', maxLength: 8 }),
    fc.constantFrom(
      '',
      ' ',
      '\u0000',
      '%00',
      '%ff',
      '..',
      '../..',
      '1e20',
      '-1',
      '0',
      'NaN',
      'true',
      'null',
      '\ud800',
      'a'.repeat(300),
      '9.9.9',
      'dev-main',
      '*',
    ),
    fc.constant(null).map(() => fc.sample(fc.constantFrom(...ids), 1)[0] as string),
  );

const jsonValue = () =>
  fc.oneof(
    text(),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(text(), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 6 }), text(), { maxKeys: 3 }),
  );

/** A path segment as a client would send it; lone surrogates as the bytes WTF-8 gives them. */
function segment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...Buffer.from(value)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  }
}

function requestOf(op: Operation, params: string[], query: [string, string][], body: unknown) {
  let i = 0;
  const path = op.path.replace(/\{[^}]+\}|:[a-z_]+/gi, () =>
    segment(params[i++ % params.length] ?? 'x'),
  );
  const qs = new URLSearchParams(query).toString();
  return { method: op.method, url: qs ? `${path}?${qs}` : path, body };
}

describe('fuzzing every operation', () => {
  it('never answers 5xx, always the contract error body, and refused requests change nothing', async () => {
    const opIndex = fc.nat({ max: operations.length - 1 });
    const arb = opIndex.chain((index) => {
      const op = operations[index]!;
      const names = fc.oneof(
        fc.constantFrom(...(op.query.length ? op.query : ['page'])),
        fc.string({ maxLength: 6 }),
      );
      const known = op.body.length ? fc.constantFrom(...op.body) : fc.string({ maxLength: 6 });
      return fc.record({
        op: fc.constant(op),
        params: fc.array(
          text().map((s) => s ?? ''),
          { minLength: 1, maxLength: 4 },
        ),
        query: fc.array(
          fc.tuple(
            names,
            text().map((s) => s ?? ''),
          ),
          { maxLength: 3 },
        ),
        body: fc.oneof(
          fc.constant(undefined),
          fc.dictionary(fc.oneof(known, fc.string({ maxLength: 6 })), jsonValue(), { maxKeys: 4 }),
          jsonValue(),
          fc.constantFrom('{', '[]', '"x"', '{"a":1,"a":2}', 'not json'),
        ),
        auth: fc.constantFrom('admin', 'admin', 'admin', 'customer', 'none', 'garbage'),
      });
    });
    let state = await snapshot();
    await fc.assert(
      fc.asyncProperty(arb, async ({ op, params, query, body, auth }) => {
        const req = requestOf(op, params, query, body);
        const headers: Record<string, string> = {};
        if (auth === 'admin') headers.authorization = t.admin.authorization;
        if (auth === 'customer') headers.authorization = customerAuth;
        if (auth === 'garbage') headers.authorization = 'Basic %%%';
        let payload: string | undefined;
        if (body !== undefined && req.method !== 'GET' && req.method !== 'DELETE') {
          payload = typeof body === 'string' && /^[[{"n]/.test(body) ? body : JSON.stringify(body);
          headers['content-type'] = 'application/json';
        }
        const before = state;
        const res = await t.app.inject({
          method: req.method as 'GET',
          url: req.url,
          headers,
          payload,
        });
        const label = `${req.method} ${req.url} ${payload ?? ''} -> ${res.statusCode} ${res.body.slice(0, 300)}`;
        expect(res.statusCode, label).toBeLessThan(500);
        if (res.statusCode >= 400) {
          const answer: { error?: unknown; code?: string; message?: unknown } = res.json();
          expect(typeof answer.error, label).toBe('string');
          expect(typeof answer.message, label).toBe('string');
          expect(Object.keys(ERROR_STATUS), label).toContain(answer.code);
          expect(await snapshot(), `state changed by a refused request: ${label}`).toBe(before);
        } else {
          state = await snapshot();
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  }, 300_000);
});
