import {
  Kind,
  OperationTypeNode,
  getNamedType,
  getNullableType,
  isInterfaceType,
  isListType,
  isObjectType,
  valueFromASTUntyped,
} from './graphql-js.js';
import type {
  DocumentNode,
  FieldNode,
  FragmentDefinitionNode,
  GraphQLField,
  GraphQLNamedType,
  GraphQLSchema,
  OperationDefinitionNode,
  SelectionSetNode,
} from 'graphql';

/** The page size a connection or list field is assumed to return when `first` is not given. */
export const DEFAULT_FIRST = 25;

type Variables = Record<string, unknown> | null | undefined;

function isConnection(type: GraphQLNamedType): boolean {
  return type.name.endsWith('Connection');
}

/** The `first` of a field: the argument itself, or `pagination.first`, else the default. */
function firstOf(node: FieldNode, variables: Variables): number {
  const args: Record<string, unknown> = {};
  for (const arg of node.arguments ?? []) {
    args[arg.name.value] = valueFromASTUntyped(arg.value, variables ?? undefined);
  }
  const pagination = args.pagination as { first?: unknown } | null | undefined;
  const first = args.first ?? pagination?.first;
  return typeof first === 'number' && Number.isFinite(first) && first >= 0
    ? Math.floor(first)
    : DEFAULT_FIRST;
}

/**
 * The cost of an operation (docs/graphql.md): every field costs 1; a connection field, or
 * a list of objects outside a connection, multiplies the cost of its subtree by its `first`
 * (default 25). Lists inside a connection (`edges`) are already counted by the connection, and
 * introspection fields (`__schema`, `__typename`, ...) are free. Fragments count where they are
 * spread.
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName?: string | null,
  variables?: Variables,
): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  const operations: OperationDefinitionNode[] = [];
  for (const def of document.definitions) {
    if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    if (def.kind === Kind.OPERATION_DEFINITION) operations.push(def);
  }
  const operation = operationName
    ? operations.find((o) => o.name?.value === operationName)
    : operations[0];
  if (!operation) return 0;
  const root =
    operation.operation === OperationTypeNode.MUTATION
      ? schema.getMutationType()
      : operation.operation === OperationTypeNode.SUBSCRIPTION
        ? schema.getSubscriptionType()
        : schema.getQueryType();
  if (!root) return 0;

  const selectionCost = (
    set: SelectionSetNode,
    parent: GraphQLNamedType,
    inConnection: boolean,
    seen: Set<string>,
  ): number => {
    let cost = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        cost += fieldCost(sel, parent, inConnection, seen);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const on = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : parent;
        cost += selectionCost(sel.selectionSet, on ?? parent, inConnection, seen);
      } else {
        const name = sel.name.value;
        const fragment = fragments.get(name);
        if (!fragment || seen.has(name)) continue;
        const on = schema.getType(fragment.typeCondition.name.value) ?? parent;
        cost += selectionCost(fragment.selectionSet, on, inConnection, new Set([...seen, name]));
      }
    }
    return cost;
  };

  const fieldCost = (
    node: FieldNode,
    parent: GraphQLNamedType,
    inConnection: boolean,
    seen: Set<string>,
  ): number => {
    if (node.name.value.startsWith('__')) return 0;
    if (!isObjectType(parent) && !isInterfaceType(parent)) return 1;
    const field: GraphQLField<unknown, unknown> | undefined = parent.getFields()[node.name.value];
    if (!field) return 1;
    const named = getNamedType(field.type);
    if (!node.selectionSet) return 1;
    const connection = isConnection(named);
    const list = isListType(getNullableType(field.type));
    const sub = selectionCost(node.selectionSet, named, connection, seen);
    if (connection) return 1 + firstOf(node, variables) * sub;
    if (list && !inConnection) return 1 + firstOf(node, variables) * sub;
    return 1 + sub;
  };

  return selectionCost(operation.selectionSet, root, false, new Set());
}
