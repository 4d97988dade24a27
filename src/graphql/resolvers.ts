import { GraphQLScalarType } from './graphql-js.js';
import type { MercuriusLoaders } from 'mercurius';
import type { Resolver } from './kit.js';
import { graphqlParts } from './parts.js';

const passThrough = (name: string, description: string) =>
  new GraphQLScalarType({
    name,
    description,
    serialize: (value) => value,
    parseValue: (value) => value,
  });

type Fields = Record<string, Resolver<never>>;

/** Merges the parts' fields of one root type, refusing a field two parts both define. */
function merged(pick: (part: (typeof graphqlParts)[number]) => Fields | undefined): Fields {
  const out: Fields = {};
  for (const part of graphqlParts) {
    for (const [name, resolver] of Object.entries(pick(part) ?? {})) {
      if (name in out) throw new Error(`GraphQL field ${name} is defined by two areas`);
      out[name] = resolver;
    }
  }
  return out;
}

/** The resolvers of every area's part, with the shared scalars. */
export const resolvers = {
  DateTime: passThrough('DateTime', 'An ISO 8601 timestamp in UTC'),
  JSON: passThrough('JSON', 'Any JSON value'),
  Query: merged((part) => part.Query),
  Mutation: merged((part) => part.Mutation),
};

/** Batched fields (one SQL round per field and request, whatever the page size). */
export const loaders: MercuriusLoaders = {};
for (const part of graphqlParts) {
  for (const [type, fields] of Object.entries(part.loaders ?? {})) {
    loaders[type] = { ...loaders[type], ...fields };
  }
}
