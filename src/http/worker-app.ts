import Fastify from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Services } from '../services.js';
import { healthRoutes } from '../areas/health/routes.js';
import type { App } from './app-types.js';
import { mapError } from './error-mapper.js';
import { createMetrics } from './metrics.js';

/**
 * The small HTTP server of a `packyard worker` process: /metrics (the syncs it runs are counted
 * here, not on the web nodes), /healthz and /readyz. Nothing else: workers serve no API.
 */
export async function buildWorkerApp(
  services: Services,
  { processMetrics = false }: { processMetrics?: boolean } = {},
): Promise<App> {
  const app = Fastify({ logger: false }).withTypeProvider<TypeBoxTypeProvider>();
  app.decorate('services', services);
  const metrics = createMetrics(services, { hits: 0 }, { processMetrics });
  app.addHook('onClose', async () => metrics.close());
  app.setErrorHandler((err, _request, reply) => {
    const mapped = mapError(err);
    return reply.code(mapped.status).type('application/json').send(mapped.body);
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({
      error: 'not_found',
      code: 'NOT_FOUND',
      message: `Route ${request.method} ${request.url.split('?')[0]} not found (a worker serves /metrics, /healthz and /readyz only)`,
    }),
  );
  await app.register(healthRoutes);
  await app.register(metrics.routes(services.deps.config.metricsToken));
  return app;
}
