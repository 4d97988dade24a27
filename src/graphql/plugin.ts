import type { FastifyReply, FastifyRequest } from 'fastify';
import mercurius from 'mercurius';
import type { MercuriusContext } from 'mercurius';
import type {
  DocumentNode,
  ExecutionResult,
  FormattedExecutionResult,
  GraphQLError as GraphQLErrorType,
} from 'graphql';
import {
  GraphQLError,
  Kind,
  NoSchemaIntrospectionCustomRule,
  OperationTypeNode,
} from './graphql-js.js';
import type { App } from '../http/app-types.js';
import { bearerToken } from '../http/auth.js';
import { mapError } from '../http/error-mapper.js';
import { assertFeature, graphqlComplexityLimit } from '../editions.js';
import { AppError, forbidden, invalid, unauthorized } from '../errors.js';
import type { Ctx } from '../context.js';
import { typeDefs } from './schema.js';
import { loaders, resolvers } from './resolvers.js';
import { operationCost } from './complexity.js';
import {
  captureInitPayloads,
  isWebSocketRequest,
  subscriptionOptions,
  subscriptionResolvers,
} from './subscriptions.js';

export const GRAPHQL_PATH = '/graphql';
export const PLAYGROUND_PATH = '/graphql/playground';

/** An error with a GraphQL-only code (QUERY_TOO_COMPLEX), outside the REST catalogue. */
export class GraphQLCodeError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    graphqlCtx?: Ctx;
  }
}

/** The `extensions` of one error: the contract code (and validation details), as REST has them. */
function extensionsOf(error: GraphQLErrorType, log: FastifyRequest['log'] | undefined) {
  const original = error.originalError;
  if (!original) return { code: 'VALIDATION_ERROR' };
  if (original instanceof GraphQLCodeError) return { code: original.code };
  // graphql-js's own input coercion (a variable of the wrong shape): the client's error.
  if (original instanceof GraphQLError) return { code: 'VALIDATION_ERROR' };
  if (original instanceof AppError) {
    return original.details
      ? { code: original.code, details: original.details }
      : { code: original.code };
  }
  const mercuriusCode = (original as { code?: unknown }).code;
  if (typeof mercuriusCode === 'string' && mercuriusCode.startsWith('MER_ERR_')) {
    return { code: 'VALIDATION_ERROR' };
  }
  const mapped = mapError(original);
  if (mapped.internal) log?.error({ err: original }, 'graphql resolver failed');
  return { code: mapped.body.code, message: mapped.body.message, internal: mapped.internal };
}

/**
 * Errors are answered with HTTP 200 and the standard `errors` array; the code is in
 * `extensions.code` (docs/graphql.md). Internal errors never leak their message.
 */
function formatErrors(
  execution: ExecutionResult & Required<Pick<ExecutionResult, 'errors'>>,
  context: MercuriusContext,
): { statusCode: number; response: ExecutionResult | FormattedExecutionResult } {
  const log = context.reply?.request.log;
  const flat = execution.errors.flatMap((error) => {
    const nested = (error.originalError as { errors?: unknown } | undefined)?.errors;
    if (Array.isArray(nested) && nested.every((e) => e instanceof GraphQLError)) {
      return nested;
    }
    return [error];
  });
  const errors = flat.map((error) => {
    const { internal, message, ...extensions } = extensionsOf(error, log) as {
      code: string;
      internal?: boolean;
      message?: string;
    };
    const json = error.toJSON();
    return {
      ...json,
      message: internal ? (message ?? 'Internal server error') : json.message,
      extensions: { ...(json.extensions ?? {}), ...extensions },
    };
  });
  return { statusCode: 200, response: { data: execution.data ?? null, errors } };
}

/**
 * A query must be GraphQL text. Mercurius would take any text that parses as JSON for a
 * ready-made document (`-1`, `{}`) and fail inside graphql-js: the client's error, not ours.
 */
function assertGraphqlText(query: unknown): void {
  if (typeof query !== 'string' || query.trim() === '') throw invalid('query', 'must be a string');
  let json = true;
  try {
    JSON.parse(query);
  } catch {
    json = false;
  }
  if (json) throw invalid('query', 'must be a GraphQL document');
}

/** A GraphQL-over-HTTP request: anything else is the client's error (400), not INTERNAL_ERROR. */
function assertGraphqlRequest(method: string, input: unknown): void {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw invalid('body', 'must be a JSON object with a "query" string');
  }
  const { query, operationName } = input as Record<string, unknown>;
  let { variables } = input as Record<string, unknown>;
  assertGraphqlText(query);
  if (method === 'GET' && typeof variables === 'string') {
    try {
      variables = JSON.parse(variables);
    } catch {
      throw invalid('variables', 'must be a JSON object');
    }
  }
  const isObject = typeof variables === 'object' && !Array.isArray(variables);
  if (variables !== undefined && variables !== null && !isObject) {
    throw invalid('variables', 'must be an object');
  }
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
    throw invalid('operationName', 'must be a string');
  }
}

function operationOf(document: DocumentNode, name: string | undefined) {
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  return name ? operations.find((o) => o.name?.value === name) : operations[0];
}

function operationNameOf(request: FastifyRequest): string | undefined {
  const source = (request.method === 'GET' ? request.query : request.body) as
    { operationName?: unknown } | undefined;
  return typeof source?.operationName === 'string' && source.operationName !== ''
    ? source.operationName
    : undefined;
}

/**
 * GraphQL at POST (and GET) /graphql on the same services as REST: admin tokens (root and CMA),
 * authorized per operation by the services, FEATURE_NOT_AVAILABLE outside Pro+, complexity checked before execution.
 */
export async function graphqlPlugin(app: App): Promise<void> {
  const { services } = app;
  const { config } = services.deps;
  const introspection = config.graphqlIntrospection;

  // Edition and token first, before the query is even parsed.
  app.addHook('preHandler', async (request: FastifyRequest, _reply: FastifyReply) => {
    if (request.routeOptions.url !== GRAPHQL_PATH) return;
    // A WebSocket upgrade authenticates by its `connection_init` payload (subscriptions.ts).
    if (isWebSocketRequest(request)) return;
    assertFeature(config.edition, 'graphql');
    const token = bearerToken(request);
    if (!token) throw unauthorized('Missing bearer token');
    let principal;
    try {
      principal = await services.auth.authenticate(request.tenantId, {
        scheme: 'bearer',
        secret: token,
      });
    } catch (err) {
      // GraphQL answers errors with 200: the failed-authentication limit needs telling.
      request.authFailed = true;
      throw err;
    }
    // As on REST: a valid customer token lacks the permission (403); 401 is for bad tokens.
    if (principal.kind !== 'admin') throw forbidden('Customer tokens may not use the GraphQL API');
    const { actor } = principal;
    assertGraphqlRequest(request.method, request.method === 'GET' ? request.query : request.body);
    request.actor = actor;
    request.userAgent = request.headers['user-agent'] ?? null;
    request.graphqlCtx = {
      tenantId: request.tenantId,
      actor,
      ip: request.ip,
      userAgent: request.userAgent,
    };
  });

  captureInitPayloads(app, GRAPHQL_PATH);
  await app.register(mercurius, {
    schema: typeDefs,
    resolvers: { ...resolvers, ...subscriptionResolvers } as never,
    loaders: loaders,
    path: GRAPHQL_PATH,
    graphiql: config.graphqlPlayground,
    errorFormatter: formatErrors,
    validationRules: introspection ? [] : [NoSchemaIntrospectionCustomRule],
    context: (request: FastifyRequest) => ({
      ctx: request.graphqlCtx ?? null,
      services,
    }),
    subscription: subscriptionOptions(services),
  });

  app.graphql.addHook('preExecution', async (schema, document, context) => {
    const request = context.reply.request;
    const name = operationNameOf(request);
    // Cloud: the tenant's plan sets the limit; elsewhere the edition does.
    const plan = request.tenantId
      ? await services.composer.usage.limits.plan(request.tenantId)
      : null;
    const limit = plan ? plan.graphql_complexity : graphqlComplexityLimit(config.edition);
    if (limit !== null) {
      const variables = (
        request.method === 'GET'
          ? safeJson((request.query as { variables?: string }).variables)
          : (request.body as { variables?: unknown } | undefined)?.variables
      ) as Record<string, unknown> | undefined;
      const cost = operationCost(schema, document, name, variables);
      if (cost > limit) {
        throw new GraphQLCodeError(
          'QUERY_TOO_COMPLEX',
          plan
            ? `Query complexity ${cost} exceeds the limit of ${limit} of your plan`
            : `Query complexity ${cost} exceeds the limit of ${limit} for the ${config.edition} edition`,
        );
      }
    }
    // Reads see every download and token use served so far, as the REST reads do. Who may run
    // a mutation is the services' decision (areas/auth/policy.ts), as for REST.
    if (operationOf(document, name)?.operation !== OperationTypeNode.MUTATION) {
      await Promise.all([services.composer.usage.flush(), services.auth.uses.flush()]);
    }
  });

  if (config.graphqlPlayground) {
    app.get(PLAYGROUND_PATH, { schema: { hide: true } }, async (_request, reply) =>
      reply.redirect('/graphiql'),
    );
  }
}

function safeJson(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
