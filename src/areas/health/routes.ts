import { sql } from 'kysely';
import { unscoped } from '../../infra/db/tenant-scope.js';
import { Type } from 'typebox';
import type { FastifyBaseLogger } from 'fastify';
import type { App } from '../../http/app-types.js';

const CHECK_TIMEOUT_MS = 5000;

const Status = Type.Union([Type.Literal('ok'), Type.Literal('failed')]);
const HealthSchema = Type.Object({ status: Type.Literal('ok') });
const ReadinessSchema = Type.Object({
  status: Status,
  checks: Type.Object({ database: Status, storage: Status }),
});

/**
 * Resolves 'ok' when the probe succeeds within the timeout, else 'failed' (never throws); the
 * cause of a failure is logged with the check's name (the answer itself reveals nothing).
 */
async function probe(
  check: string,
  run: () => Promise<unknown>,
  log: FastifyBaseLogger,
): Promise<'ok' | 'failed'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([run(), timeout]);
    return 'ok';
  } catch (err) {
    log.warn({ err, check }, 'readiness probe failed');
    return 'failed';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Liveness and readiness probes for load balancers and orchestrators. Registered outside
 * /api/v1: no authentication, and they reveal nothing beyond up/down.
 */
export async function healthRoutes(app: App): Promise<void> {
  const tags = ['operations'];
  const { db, storage } = app.services.deps;

  app.get(
    '/healthz',
    { schema: { tags, summary: 'The process is up', response: { 200: HealthSchema } } },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags,
        summary: 'The database and the archive storage are reachable',
        response: { 200: ReadinessSchema, 503: ReadinessSchema },
      },
    },
    async (request, reply) => {
      const [database, store] = await Promise.all([
        probe(
          'database',
          () => sql`select 1`.execute(unscoped(db, 'a probe reads no table')),
          request.log,
        ),
        probe('storage', () => storage.check(), request.log),
      ]);
      const ok = database === 'ok' && store === 'ok';
      if (!ok) request.log.warn({ database, storage: store }, 'readiness check failed');
      return reply
        .code(ok ? 200 : 503)
        .send({ status: ok ? 'ok' : 'failed', checks: { database, storage: store } });
    },
  );
}
