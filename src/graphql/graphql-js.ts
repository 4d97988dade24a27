import { createRequire } from 'node:module';
import type * as GraphQLModule from 'graphql';

/**
 * graphql-js as Mercurius loads it. graphql ships both CommonJS and ESM builds; Mercurius
 * `require`s the CommonJS one, and graphql refuses types and errors made by the other copy
 * ("Cannot use GraphQLNonNull from another module or realm"). Every value import of graphql in
 * src/graphql goes through here; type imports may use 'graphql' directly.
 */
const graphql = createRequire(import.meta.url)('graphql') as typeof GraphQLModule;

export const {
  GraphQLError,
  GraphQLScalarType,
  Kind,
  NoSchemaIntrospectionCustomRule,
  OperationTypeNode,
  buildSchema,
  getNamedType,
  getNullableType,
  isInterfaceType,
  isListType,
  isObjectType,
  parse,
  printSchema,
  valueFromASTUntyped,
} = graphql;
