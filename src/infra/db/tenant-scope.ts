import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

// Not imported from connection.ts, which guards its handle with this module.
type Db = Kysely<Database>;

import { TENANT_TABLES } from './tenant-tables.js';

export { TENANT_TABLES };

/** A query through a tenant-bound handle that could reach another tenant's rows: a bug, never input. */
export class UnscopedQueryError extends Error {
  constructor(message: string) {
    super(`Unscoped query refused by the tenant-bound handle: ${message}`);
  }
}

/**
 * The tenant a handle is bound to, or ANY_TENANT: the guard every handle of the application
 * carries, which accepts a query pinned to whichever single tenant but never one pinned to none.
 */
export const ANY_TENANT = Symbol('any tenant');
type Tenant = string | typeof ANY_TENANT;
const matches = (tenant: Tenant, value: unknown): boolean =>
  tenant === ANY_TENANT ? typeof value === 'string' && value !== '' : value === tenant;

type Node = OperationNode & Record<string, unknown>;
const isNode = (v: unknown): v is Node =>
  typeof v === 'object' && v !== null && typeof (v as { kind?: unknown }).kind === 'string';
const kindOf = (v: unknown): string | null => (isNode(v) ? v.kind : null);

function identifierName(node: unknown): string | null {
  const n = node as { name?: unknown } | undefined;
  return typeof n?.name === 'string' ? n.name : null;
}

/** `table` or `table as alias` of a FROM/JOIN/UPDATE item, when it names a table. */
function tableItem(node: unknown): { table: string; name: string } | null {
  if (kindOf(node) === 'TableNode') {
    const table = identifierName(
      (node as Node & { table: { identifier: unknown } }).table.identifier,
    );
    return table ? { table, name: table } : null;
  }
  if (kindOf(node) === 'AliasNode') {
    const inner = (node as Node & { node: unknown; alias: unknown }).node;
    const item = tableItem(inner);
    const alias = identifierName((node as Node & { alias: unknown }).alias);
    return item && alias ? { table: item.table, name: alias } : null;
  }
  return null;
}

/** The conjuncts of a WHERE/ON expression (an OR, or anything else, is one opaque conjunct). */
function conjuncts(node: unknown): Node[] {
  if (!isNode(node)) return [];
  if (node.kind === 'WhereNode' || node.kind === 'OnNode') return conjuncts(node.where ?? node.on);
  if (node.kind === 'AndNode') return [...conjuncts(node.left), ...conjuncts(node.right)];
  if (node.kind === 'ParensNode') return conjuncts(node.node);
  return [node];
}

/** Whether `expr` says `<name>.tenant_id = <tenantId>` (unqualified allowed when `alone`). */
function pins(expr: Node, name: string, alone: boolean, tenantId: Tenant): boolean {
  if (expr.kind !== 'BinaryOperationNode') return false;
  const op = (expr.operator as { operator?: unknown } | undefined)?.operator;
  if (op !== '=') return false;
  const sides = [expr.leftOperand, expr.rightOperand];
  const ref = sides.find((s) => kindOf(s) === 'ReferenceNode') as
    (Node & { column: unknown; table?: unknown }) | undefined;
  const value = sides.find((s) => kindOf(s) === 'ValueNode') as
    (Node & { value: unknown }) | undefined;
  if (!ref || !value || !matches(tenantId, value.value)) return false;
  const column = identifierName((ref.column as { column?: unknown }).column);
  if (column !== 'tenant_id') return false;
  if (ref.table === undefined) return alone;
  return (
    identifierName((ref.table as { table: { identifier: unknown } }).table.identifier) === name
  );
}

/** The table name a qualified column reference names, or null. */
function refTable(node: unknown): string | null {
  if (kindOf(node) !== 'ReferenceNode') return null;
  const table = (node as { table?: { table: { identifier: unknown } } }).table;
  return table ? identifierName(table.table.identifier) : null;
}

/** A key column: `id` or a reference to one (`customer_id`), never a tenant's own value. */
function isKeyRef(node: unknown): boolean {
  const column = identifierName(((node as { column?: { column?: unknown } }).column ?? {}).column);
  return column !== null && column !== 'tenant_id' && (column === 'id' || column.endsWith('_id'));
}

/** Whether `expr` equates a key of `name` with a key of a pinned table. */
function joinsTo(expr: Node, name: string, pinned: ReadonlySet<string>): boolean {
  if (expr.kind !== 'BinaryOperationNode') return false;
  if ((expr.operator as { operator?: unknown } | undefined)?.operator !== '=') return false;
  if (!isKeyRef(expr.leftOperand) || !isKeyRef(expr.rightOperand)) return false;
  const [left, right] = [refTable(expr.leftOperand), refTable(expr.rightOperand)];
  return (
    (left === name && !!right && pinned.has(right)) ||
    (right === name && !!left && pinned.has(left))
  );
}

/**
 * Checks one query (and every query nested in it) against the bound tenant: each tenant table
 * read, changed or deleted from is pinned by `tenant_id = <tenant>` in the WHERE (or, for a join,
 * its ON) of its own query, as a conjunct; each row inserted into a tenant table carries the
 * tenant. Anything it cannot prove (a raw SQL query, INSERT … SELECT into a tenant table) is
 * refused.
 */
export function assertScoped(root: OperationNode, tenantId: Tenant): void {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isNode(node)) return;
    switch (node.kind) {
      case 'SelectQueryNode':
      case 'UpdateQueryNode':
      case 'DeleteQueryNode':
        checkFiltered(node, tenantId);
        break;
      case 'InsertQueryNode':
        checkInsert(node, tenantId);
        break;
    }
    for (const value of Object.values(node)) if (typeof value === 'object') visit(value);
  };
  // A whole query in raw SQL cannot be checked. Raw fragments inside a built query (an ORDER BY
  // expression, a CASE) are let through: they must not hide a read of another table.
  if (root.kind === 'RawNode') {
    throw new UnscopedQueryError('raw SQL cannot be checked; use unscoped(db, reason)');
  }
  visit(root);
}

function checkFiltered(node: Node, tenantId: Tenant): void {
  const items: { item: { table: string; name: string }; on?: unknown }[] = [];
  const froms = (node.from as { froms?: unknown[] } | undefined)?.froms ?? [];
  for (const from of froms) {
    const item = tableItem(from);
    if (item) items.push({ item });
  }
  if (node.kind === 'UpdateQueryNode') {
    const item = tableItem(node.table);
    if (item) items.push({ item });
  }
  for (const join of (node.joins as (Node & { table: unknown; on?: unknown })[] | undefined) ??
    []) {
    const item = tableItem(join.table);
    if (item) items.push({ item, on: join.on });
  }
  const tenantItems = items.filter(({ item }) => TENANT_TABLES.has(item.table));
  const alone = tenantItems.length === 1;
  const where = conjuncts(node.where);
  const scopeOf = (on: unknown) => [...where, ...conjuncts(on)];
  const pinned = new Set(
    tenantItems
      .filter(({ item, on }) => scopeOf(on).some((expr) => pins(expr, item.name, alone, tenantId)))
      .map(({ item }) => item.name),
  );
  // The application-wide guard also takes a table joined by key to a pinned one (`g.customer_id
  // = c.id` where c is pinned): its rows follow the pinned rows. A bound handle wants every table
  // pinned.
  for (let grew = tenantId === ANY_TENANT; grew;) {
    grew = false;
    for (const { item, on } of tenantItems) {
      if (pinned.has(item.name)) continue;
      if (scopeOf(on).some((expr) => joinsTo(expr, item.name, pinned))) {
        pinned.add(item.name);
        grew = true;
      }
    }
  }
  for (const { item } of tenantItems) {
    if (!pinned.has(item.name)) {
      throw new UnscopedQueryError(
        `${item.table}${item.name !== item.table ? ` as ${item.name}` : ''} is not pinned to the tenant (where ${item.name}.tenant_id = …)`,
      );
    }
  }
}

function checkInsert(node: Node, tenantId: Tenant): void {
  const into = tableItem(node.into);
  if (!into || !TENANT_TABLES.has(into.table)) return;
  const columns = ((node.columns as { column: unknown }[] | undefined) ?? []).map((c) =>
    identifierName(c.column),
  );
  const at = columns.indexOf('tenant_id');
  if (at < 0) throw new UnscopedQueryError(`insert into ${into.table} without tenant_id`);
  const values = node.values as (Node & { values?: unknown[] }) | undefined;
  if (values?.kind !== 'ValuesNode') {
    throw new UnscopedQueryError(
      `insert into ${into.table} from a query; use unscoped(db, reason)`,
    );
  }
  for (const row of values.values ?? []) {
    const list = (row as { kind: string; values: unknown[] }).values;
    const cell = list[at];
    const value =
      (row as { kind: string }).kind === 'PrimitiveValueListNode'
        ? cell
        : (cell as { value?: unknown } | undefined)?.value;
    if (!matches(tenantId, value)) {
      throw new UnscopedQueryError(`insert into ${into.table} for another tenant`);
    }
  }
}

/** The Kysely plugin that applies `assertScoped` to every query of a handle. */
export class TenantScopePlugin implements KyselyPlugin {
  constructor(readonly tenantId: Tenant) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    assertScoped(args.node, this.tenantId);
    return args.node;
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}

/**
 * The handle a store of one tenant's data works with: any query that could reach another
 * tenant's rows throws UnscopedQueryError before it reaches the database. Transactions opened
 * from it (and units of work joined through it) stay bound.
 */
export function forTenant(db: Db, tenantId: string): Db {
  const plain = plainOf.get(db) ?? db;
  const bound = plain.withPlugin(new TenantScopePlugin(tenantId));
  plainOf.set(bound, plain);
  return bound;
}

/**
 * The application's handle: every query of a tenant table must be pinned to one tenant (any);
 * what spans tenants says so with `unscoped`. Stores then bind the tenant with `forTenant`.
 */
export function guardTenants(db: Db): Db {
  const guarded = db.withPlugin(new TenantScopePlugin(ANY_TENANT));
  plainOf.set(guarded, db);
  return guarded;
}

/** The handle each bound handle was made from (so `unscoped` keeps the schema plugin). */
const plainOf = new WeakMap<Db, Db>();

/**
 * The escape hatch, greppable on purpose: a handle without the tenant check, for the few queries
 * that legitimately span tenants (worker claims, cleanup sweeps, migrations, the proxy's shared
 * cache). `reason` says why, for the reader. Give it the bound handle `forTenant` returned (a
 * transaction opened from a bound handle stays bound).
 */
export function unscoped(db: Db, reason: string): Db {
  void reason;
  // A transaction opened from a guarded or bound handle carries its plugin; ours are the only ones.
  return plainOf.get(db) ?? db.withoutPlugins();
}
