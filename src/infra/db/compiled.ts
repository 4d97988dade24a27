import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema.js';

// Not imported from connection.ts, which runs the statements named here.
type Db = Kysely<Database>;

/**
 * The SQL text of every compiled hot query, with its statement name: PostgreSQL connections keep
 * each as a named prepared statement (connection.ts), parsed and planned once per connection
 * instead of on every run.
 */
export const namedStatements = new Map<string, string>();

/** Tenants whose compiled queries are kept; past it the cache starts over (Cloud has many). */
const MAX_TENANTS = 1000;

/**
 * A hot query compiled once per tenant and run with new values for its other parameters. Building
 * a query with Kysely and checking it against the tenant guard (tenant-scope.ts, which runs when a
 * query is compiled) costs more than running a small indexed read; a token's first request makes
 * two. The guard has checked the tenant value each compiled query carries, so the cache is keyed
 * by tenant; `build` gets placeholders for the other values and must use each exactly as a value.
 */
export function compiledPerTenant<Row, Args extends string[]>(
  build: (db: Db, tenantId: string, ...args: Args) => Compilable<Row>,
  arity: Args['length'],
): (db: Db, tenantId: string, ...args: Args) => Promise<Row[]> {
  const placeholders = Array.from({ length: arity }, (_, k) => `\u0000placeholder ${k}\u0000`);
  type Entry = { compiled: CompiledQuery<Row>; at: number[][] };
  const byTenant = new WeakMap<Db, Map<string, Entry>>();
  const compile = (db: Db, tenantId: string) => {
    let tenants = byTenant.get(db);
    if (!tenants) byTenant.set(db, (tenants = new Map<string, Entry>()));
    let entry = tenants.get(tenantId);
    if (!entry) {
      const compiled = build(db, tenantId, ...(placeholders as Args)).compile();
      const at = placeholders.map((p) =>
        compiled.parameters.flatMap((value, k) => (value === p ? [k] : [])),
      );
      if (at.some((positions) => positions.length === 0)) {
        throw new Error('compiledPerTenant: a placeholder is not a parameter of the query');
      }
      if (!namedStatements.has(compiled.sql)) {
        namedStatements.set(compiled.sql, `packyard_${namedStatements.size}`);
      }
      if (tenants.size >= MAX_TENANTS) tenants.clear();
      entry = { compiled, at };
      tenants.set(tenantId, entry);
    }
    return entry;
  };
  return async (db, tenantId, ...args) => {
    const { compiled, at } = compile(db, tenantId);
    const parameters = [...compiled.parameters];
    at.forEach((positions, k) => {
      for (const position of positions) parameters[position] = args[k];
    });
    const result = await db.executeQuery<Row>({ ...compiled, parameters });
    return result.rows;
  };
}
