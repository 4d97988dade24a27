import http from 'node:http';
import Fastify from 'fastify';
import type { FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { AppError } from './errors.js';
import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DEFAULT_TENANT_ID } from './infra/db/schema.js';
import { assertFeature, featureOfPath } from './editions.js';
import { clientErrorResponse, mapError } from './http/error-mapper.js';
import { serializerCompiler } from './http/serializer.js';
import { assertCleanInput, rejectUndeclaredFields, validatorCompiler } from './http/validation.js';
import { limitAuthFailures } from './http/auth-failures.js';
import { authenticateAdminRequest } from './http/auth.js';
import { assertRouteOperation } from './http/route-operations.js';
import type { App } from './http/app-types.js';
import type { Services } from './services.js';
import { customerRoutes } from './areas/customers/routes.js';
import { packageRoutes } from './areas/packages/routes.js';
import { artifactRoutes } from './areas/artifacts/routes.js';
import { composerRoutes } from './areas/composer-repository/routes.js';
import { createP2FastPath } from './areas/composer-repository/fast-path.js';
import { answerConnectionsFirst } from './http/fast-connections.js';
import type { FastConnectionStats } from './http/fast-connections.js';
import { TenantResolver } from './areas/tenants/resolver.js';
import { resolveTenantsByHost } from './areas/tenants/hook.js';
import { tenantRoutes } from './areas/tenants/routes.js';
import { tokenRoutes } from './areas/tokens/routes.js';
import { teamRoutes } from './areas/team/routes.js';
import { accessRoutes } from './areas/access/routes.js';
import { collectionRoutes } from './areas/collections/routes.js';
import { taskRoutes } from './areas/tasks/routes.js';
import { monorepoRoutes } from './areas/monorepo/routes.js';
import { auditRoutes } from './areas/audit/routes.js';
import { eventRoutes } from './areas/events/routes.js';
import { outgoingWebhookRoutes } from './areas/outgoing-webhooks/routes.js';
import { statsRoutes } from './areas/stats/routes.js';
import { licenseRoutes } from './areas/license/routes.js';
import { settingsRoutes } from './areas/settings/routes.js';
import { portalRoutes } from './areas/portal/routes.js';
import { portalUiRoutes } from './areas/portal/ui-routes.js';
import { healthRoutes } from './areas/health/routes.js';
import { graphqlPlugin } from './graphql/plugin.js';
import { createMetrics } from './http/metrics.js';
import { echoRequestId, genReqId, withRedaction } from './http/logging.js';
import { createRateLimiting } from './http/rate-limit.js';
import { webhookRoutes } from './areas/webhooks/routes.js';
import { oauthCallbackRoutes, oauthRoutes } from './areas/oauth/routes.js';
import { hostAppRoutes, hostAppSetupRoutes } from './areas/hostapp/routes.js';
import { webhookDeliveryRoutes } from './areas/webhooks/deliveries-routes.js';
import { adminUiRoutes } from './areas/admin-ui/routes.js';
import { sessionRoutes } from './areas/admin-ui/session-routes.js';
import { rootRedirectRoutes } from './areas/admin-ui/root-redirect.js';
import { versionPreviewRoutes } from './areas/packages/preview-routes.js';
import { distProxyRoutes } from './areas/proxy/dist-routes.js';
import { proxyRoutes } from './areas/proxy/routes.js';
import { advisoryRoutes, vulnerabilityRoutes } from './areas/advisories/routes.js';
import { composerAdvisoryRoutes } from './areas/advisories/composer-routes.js';

export interface BuildAppOptions {
  services: Services;
  /** pino options (a `stream` among them captures the output); secrets are always redacted. */
  logger?: FastifyServerOptions['logger'];
  /** Export process_* and nodejs_* metrics too (serve turns this on; tests leave it off). */
  processMetrics?: boolean;
}

function sendError(err: unknown, request: FastifyRequest, reply: FastifyReply) {
  const mapped = mapError(err);
  if (mapped.internal) request.log.error({ err }, 'request failed');
  if (mapped.status === 503) reply.header('retry-after', '5');
  return reply.code(mapped.status).type('application/json').send(mapped.body);
}

/** Builds the HTTP app from its parts; listening happens elsewhere so tests can inject. */
export async function buildApp({
  services,
  logger = false,
  processMetrics = false,
}: BuildAppOptions): Promise<App> {
  const { config } = services.deps;
  const limits = createRateLimiting({
    config,
    onRedisError: (err) => app.log.warn({ err }, 'Redis (rate-limit counters) unavailable'),
  });
  const tenants =
    config.edition === 'cloud' && config.baseDomain
      ? new TenantResolver(services.deps.db, config.baseDomain)
      : null;
  const p2FastPath = createP2FastPath(
    services.composer.responses,
    limits.fastPathGate,
    tenants ? (req) => tenants.peek(req.headers.host) : undefined,
  );
  const fastConnections: FastConnectionStats = { answered: 0, handedOver: 0 };
  const app = Fastify({
    logger: withRedaction(logger),
    genReqId,
    serverFactory: (handler) => {
      const server = http.createServer((req, res) => {
        if (!p2FastPath.viaNodeHttp(req, res)) handler(req, res);
      });
      // Cache hits on connections that start with them skip node:http's objects too.
      answerConnectionsFirst(server, p2FastPath, fastConnections);
      return server;
    },
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy ?? false,
    // Errors the router raises (bad percent-encoding, over-long parameters) get the contract's body.
    frameworkErrors: (err, request, reply) => void sendError(err, request, reply),
    clientErrorHandler: (err: Error & { code?: string }, socket) => {
      if (err.code === 'ECONNRESET' || socket.destroyed) return;
      if (socket.writable) socket.write(clientErrorResponse(err));
      socket.destroy(err);
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('services', services);
  app.decorate('p2FastPath', p2FastPath);
  app.decorate('fastConnections', fastConnections);
  const metrics = createMetrics(services, p2FastPath, { processMetrics });
  app.addHook('onRequest', echoRequestId);
  if (tenants && config.baseDomain) {
    resolveTenantsByHost(app, tenants, { baseUrl: config.baseUrl, baseDomain: config.baseDomain });
  }
  app.addHook('onResponse', metrics.onResponse);
  app.addHook('onClose', async () => metrics.close());
  app.addHook('onClose', async () => limits.close());
  app.decorateRequest('tenantId', DEFAULT_TENANT_ID);
  app.decorateRequest('tenantBaseUrl', null);
  // Set by the admin authentication hook; the Composer routes carry their principal themselves.
  app.decorateRequest('actor', null as never);
  app.decorateRequest('customerPrincipal', null);
  app.decorateRequest('userAgent', null);

  // An empty body with a JSON content type means "no body" (curl users send the header always).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    return parseJson(req, text, done);
  });
  // A body without a content type (chunked, as some clients send an empty POST) counts as no
  // body when it is empty; anything else is 415.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => {
    if ((body as Buffer).length === 0) return done(null, undefined);
    return done(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported Content-Type'), undefined);
  });
  app.addHook('preValidation', async (request) => assertCleanInput(request));
  limitAuthFailures(app, {
    limit: config.authFailureLimit,
    windowMs: config.authFailureWindowMs,
    redisUrl: config.redisUrl,
    redisKeyPrefix: config.redisKeyPrefix,
  });
  app.setErrorHandler(sendError);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const feature = featureOfPath(path);
    if (feature) assertFeature(config.edition, feature);
    return reply.code(404).send({
      error: 'not_found',
      code: 'NOT_FOUND',
      message: `Route ${request.method} ${path} not found`,
    });
  });

  // JSON answers of the API compressed per request; Composer metadata arrives already gzipped
  // (compressed once in the response cache), archives are zips and static files precompressed.
  await app.register(compress, { global: true, threshold: 1024, encodings: ['gzip', 'deflate'] });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Packyard admin API', version: '1.0.0' },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  // The Composer surface runs in its own context, free of the admin API's hooks: it is the
  // hot path, and it authenticates and authorizes per route.
  await app.register(async (composer) => {
    await limits.apply(composer, 'composer');
    await composer.register(composerRoutes);
    await composer.register(distProxyRoutes);
    await composer.register(composerAdvisoryRoutes);
  });
  // Operations endpoints: outside /api/v1, so no admin token (METRICS_TOKEN guards /metrics).
  // GraphQL in its own context: its error formatter and hooks stay off the REST routes.
  await app.register(async (gql) => {
    await limits.apply(gql, 'admin');
    await gql.register(graphqlPlugin);
  });
  await app.register(healthRoutes);
  // Inbound webhooks and the OAuth callback: no admin token (signatures and `state` instead).
  await app.register(webhookRoutes);
  await app.register(oauthCallbackRoutes);
  await app.register(hostAppSetupRoutes);
  await app.register(metrics.routes(config.metricsToken));
  await app.register(adminUiRoutes);
  await app.register(portalUiRoutes);
  await app.register(rootRedirectRoutes);
  if (tenants) {
    const platform = services.tenants;
    // A tenant changed in any process of this serve: this one forgets its host before it answers.
    const stopForgetting = services.deps.peers.on('forget', ({ cache, key }) => {
      if (cache === 'tenant-host') tenants.forget(key);
    });
    app.addHook('onClose', async () => stopForgetting());
    await app.register(
      async (api) => {
        await limits.apply(api, 'admin');
        await api.register(tenantRoutes(platform, config.cloud.platformAdminToken));
      },
      { prefix: '/api/v1' },
    );
  }
  await app.register(
    async (api) => {
      await limits.apply(api, 'admin');
      api.addHook('onRoute', assertRouteOperation);
      api.addHook('onRequest', authenticateAdminRequest);
      // Routes whose body is optional (suspend, jwt, rotate) validate a missing body as {}.
      api.addHook('preValidation', async (request) => {
        if (request.body === undefined && request.method !== 'GET') request.body = {};
        rejectUndeclaredFields(request);
      });
      // Admin reads (download counts, statistics, tokens' last use) see every download and
      // token use this node served so far.
      api.addHook('preHandler', async (request) => {
        if (request.method !== 'GET') return;
        await Promise.all([services.composer.usage.flush(), services.auth.uses.flush()]);
      });
      await api.register(customerRoutes);
      await api.register(packageRoutes);
      await api.register(monorepoRoutes);
      await api.register(artifactRoutes);
      await api.register(statsRoutes);
      await api.register(tokenRoutes);
      await api.register(teamRoutes);
      await api.register(accessRoutes);
      await api.register(collectionRoutes);
      await api.register(licenseRoutes);
      await api.register(settingsRoutes);
      await api.register(portalRoutes);
      await api.register(taskRoutes);
      await api.register(auditRoutes);
      await api.register(eventRoutes);
      await api.register(outgoingWebhookRoutes);
      await api.register(oauthRoutes);
      await api.register(hostAppRoutes);
      await api.register(webhookDeliveryRoutes);
      await api.register(versionPreviewRoutes);
      await api.register(sessionRoutes);
      await api.register(proxyRoutes);
      await api.register(advisoryRoutes);
      await api.register(vulnerabilityRoutes);
    },
    { prefix: '/api/v1' },
  );

  return app;
}
