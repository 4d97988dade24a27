import type { MercuriusContext, MercuriusLoaders } from 'mercurius';
import type { Ctx } from '../context.js';
import { invalid, unauthorized } from '../errors.js';
import type { Services } from '../services.js';

/**
 * What every area's GraphQL part (areas/<area>/graphql.ts) is built from: the request context,
 * resolver wrappers, Relay-style pages, and the mapping from REST presenter output to GraphQL
 * field names. src/graphql/schema.ts and resolvers.ts assemble the parts.
 */

declare module 'mercurius' {
  interface MercuriusContext {
    /** The caller, set once the request's admin token is verified; null before that. */
    ctx: Ctx | null;
    services: Services;
  }
}

export type Context = MercuriusContext;
export type Resolver<A = Record<string, unknown>> = (
  parent: unknown,
  args: A,
  context: Context,
) => unknown;
/** One batched field: Mercurius hands a loader every parent of the field in the request. */
export type Loader<P> = (queries: { obj: P; params: unknown }[], context: Context) => unknown;

/** One area's part of the schema: its SDL (`extend type Query/Mutation` for its fields) and code. */
export interface GraphqlPart {
  typeDefs: string;
  Query?: Record<string, Resolver<never>>;
  Mutation?: Record<string, Resolver<never>>;
  /** Batched fields of the area's types: type name -> field name -> loader. */
  loaders?: MercuriusLoaders;
}

/** The service context of an authenticated request (the plugin refuses the rest earlier). */
export function need(context: Context): Ctx {
  if (!context.ctx) throw unauthorized('Missing or invalid token');
  return context.ctx;
}

/** A query field: the service call with the caller's context. */
export function query<A>(fn: (args: A, ctx: Ctx, services: Services) => unknown): Resolver<A> {
  return (_parent, args, context) => fn(args, need(context), context.services);
}

/** A mutation: the service call (its unit of work declares what happens after commit). */
export function mutation<A>(
  fn: (args: A, ctx: Ctx, services: Services) => Promise<unknown>,
): Resolver<A> {
  return (_parent, args, context) => fn(args, need(context), context.services);
}

// ---- pages ------------------------------------------------------------------------------------

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

export interface PageArgs {
  pagination?: { first?: number | null; after?: string | null } | null;
  first?: number | null;
  after?: string | null;
}

const cursorOf = (offset: number) => Buffer.from(`offset:${offset}`).toString('base64url');

function offsetOf(cursor: string): number {
  // Nine digits at most: a larger offset is no cursor we issued, and would overflow the query.
  const match = /^offset:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw invalid('after', 'is not a cursor this API issued');
  return Number(match[1]);
}

/** `first`/`after` given directly or in `pagination` (docs/graphql.md). */
export function pageOf(args: PageArgs): { offset: number; limit: number } {
  const first = args.first ?? args.pagination?.first ?? DEFAULT_PAGE_SIZE;
  const after = args.after ?? args.pagination?.after ?? null;
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE) {
    throw invalid('first', `must be between 1 and ${MAX_PAGE_SIZE}`);
  }
  return { offset: after ? offsetOf(after) + 1 : 0, limit: first };
}

export function connection<T>(nodes: T[], total: number, offset: number) {
  const edges = nodes.map((node, i) => ({ node, cursor: cursorOf(offset + i) }));
  return {
    edges,
    pageInfo: {
      hasNextPage: offset + nodes.length < total,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    totalCount: total,
  };
}

// ---- presentation -----------------------------------------------------------------------------

type Camel<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<Camel<Tail>>}`
  : S;
export type CamelKeys<T> = { [K in keyof T as K extends string ? Camel<K> : K]: T[K] };

/**
 * A REST presenter's output under GraphQL's field names (`created_at` -> `createdAt`). Shallow on
 * purpose: nested values such as an audit entry's `summary` are data, not field names.
 */
export function camelKeys<T extends object>(dto: T): CamelKeys<T> {
  return Object.fromEntries(
    Object.entries(dto).map(([key, value]) => [
      key.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()),
      value,
    ]),
  ) as CamelKeys<T>;
}

/** GraphQL enums are the upper-case forms of the REST values (`github` -> `GITHUB`). */
export const upper = (value: string) => value.toUpperCase();

/** A GraphQL enum value as the REST value it stands for; absent stays absent. */
export const lower = (value: string | null | undefined) =>
  value === null || value === undefined ? undefined : value.toLowerCase();

/** Drops the undefined keys GraphQL leaves in inputs, like a JSON body would not have them. */
export function compact<T extends Record<string, unknown>>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<T>;
}
