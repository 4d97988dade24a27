import crypto from 'node:crypto';
import net from 'node:net';
import { unscoped } from '../infra/db/tenant-scope.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Aggregator } from 'prom-client';
import type { App } from './app-types.js';
import type { Services } from '../services.js';
import { forbidden, unauthorized } from '../errors.js';
import { clusterMetricsText, primaryAnswersMetrics, shareWithPrimary } from './metrics-cluster.js';

export interface MetricsOptions {
  /** Also export process_* and nodejs_* metrics (CPU, memory, event loop). Off in tests. */
  processMetrics?: boolean;
}

/** Requests that matched no route share one label, so scanners cannot blow up cardinality. */
const UNMATCHED = '<unmatched>';

/** 127.0.0.0/8 and ::1, IPv4-mapped forms included (BlockList matches ::ffff:127.x as IPv4). */
const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** True for a loopback address; anything that is not an IP address (a forged header) is not. */
export function isLoopback(ip: string | undefined): boolean {
  const family = net.isIP(ip ?? '');
  return family !== 0 && LOOPBACK.check(ip ?? '', family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Prometheus metrics for one app instance, in a registry of its own (never prom-client's global
 * default), so any number of apps in one process keep separate figures.
 *
 * In a `packyard serve` cluster (WEB_CONCURRENCY > 1) the primary merges every process's registry
 * (metrics-cluster.ts) by each metric's `aggregator`: prom-client's default `sum` for counters and
 * histograms (the serve's total, which never goes down while its processes live); the gauges
 * below say their own.
 */
export function createMetrics(
  services: Services,
  fastPath: { hits: number },
  options: MetricsOptions = {},
) {
  const { db, events } = services.deps;
  const registry = new Registry();
  if (options.processMetrics) {
    // prom-client's aggregators for its process metrics stand: CPU, memory, handles summed (the
    // serve's use; open and max file descriptors both summed, so their ratio stays a ratio); event
    // loop lag averaged, its min and max as such; the version `first`. It omits the start time:
    // `max` keeps it, and it moves when any process (re)starts, which is exactly when the summed
    // counters lose that process's counts.
    collectDefaultMetrics({ register: registry });
    const started = registry.getSingleMetric('process_start_time_seconds');
    if (started) (started as unknown as { aggregator: Aggregator }).aggregator = 'max';
  }

  const requests = new Counter({
    name: 'packyard_http_requests_total',
    help: 'HTTP requests answered through the router, by route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'packyard_http_request_duration_seconds',
    help: 'Time to answer HTTP requests through the router, by route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });

  // The metadata fast path answers before Fastify (src/areas/composer-repository/fast-path.ts) and only bumps a plain
  // number; the counter catches up with it at scrape time, so the hot path pays nothing.
  let fastPathSeen = 0;
  new Counter({
    name: 'packyard_p2_fast_path_responses_total',
    help: 'Metadata requests (packages.json and p2) answered from the response cache before routing',
    registers: [registry],
    collect() {
      const hits = fastPath.hits;
      if (hits > fastPathSeen) this.inc(hits - fastPathSeen);
      fastPathSeen = hits;
    },
  });

  const syncs = new Counter({
    name: 'packyard_syncs_total',
    help: 'Package syncs finished in this process, by status (ok, failed)',
    labelNames: ['status'] as const,
    registers: [registry],
  });
  const lastSync = new Gauge({
    name: 'packyard_last_sync_timestamp_seconds',
    help: 'Unix time of the last sync finished in this process, by status',
    labelNames: ['status'] as const,
    registers: [registry],
    // Over a cluster: the last sync of any process (a sum of timestamps means nothing).
    aggregator: 'max',
  });
  const syncDuration = new Histogram({
    name: 'packyard_sync_duration_seconds',
    help: 'Time a package sync took in this process (fetch, archives, commit), by status',
    labelNames: ['status'] as const,
    buckets: [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
    registers: [registry],
  });
  const downloads = new Counter({
    name: 'packyard_downloads_total',
    help: 'Package archives served by this process',
    registers: [registry],
  });

  new Gauge({
    name: 'packyard_tasks',
    help: 'Background tasks in the database by status (pending = queue depth), all tenants',
    labelNames: ['status'] as const,
    registers: [registry],
    // Every process reads the same shared table: over a cluster any one answer is the figure.
    aggregator: 'first',
    async collect() {
      const rows = await unscoped(db, 'the task gauge counts every tenant’s tasks')
        .selectFrom('tasks')
        .select(['status', db.fn.countAll<number | string>().as('count')])
        .groupBy('status')
        .execute();
      this.reset();
      for (const status of ['pending', 'running', 'done', 'failed']) this.set({ status }, 0);
      for (const row of rows) this.set({ status: row.status }, Number(row.count));
    },
  });

  const unshare = shareWithPrimary(registry);
  const unsubscribe = events.subscribe((event) => {
    if (event.type === 'package.synced') {
      syncs.inc({ status: event.status });
      if (event.durationMs !== undefined) {
        syncDuration.observe({ status: event.status }, event.durationMs / 1000);
      }
      lastSync.set({ status: event.status }, Date.parse(event.at) / 1000);
    } else if (event.type === 'customer.activity' && event.activity === 'DOWNLOAD') {
      downloads.inc();
    }
  });

  return {
    registry,

    /** onResponse hook: one observation per routed request. */
    onResponse: async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const labels = {
        method: request.method,
        route: request.routeOptions.url ?? UNMATCHED,
        status: String(reply.statusCode),
      };
      requests.inc(labels);
      duration.observe(labels, reply.elapsedTime / 1000);
    },

    /**
     * GET /metrics: with METRICS_TOKEN set, its bearer token from anywhere; without it, loopback
     * callers only (`request.ip`, so TRUST_PROXY applies). In a cluster, the whole serve's figures.
     */
    routes(token: string | null) {
      const expected = token ? Buffer.from(`Bearer ${token}`) : null;
      return async (app: App): Promise<void> => {
        app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
          if (expected) {
            const given = Buffer.from(request.headers.authorization ?? '');
            const ok = given.length === expected.length && crypto.timingSafeEqual(given, expected);
            if (!ok) throw unauthorized('GET /metrics needs the METRICS_TOKEN bearer token');
          } else if (!isLoopback(request.ip)) {
            throw forbidden(
              'GET /metrics answers loopback addresses only; set METRICS_TOKEN to scrape from elsewhere',
            );
          }
          const text = primaryAnswersMetrics()
            ? await clusterMetricsText()
            : await registry.metrics();
          return reply.type(registry.contentType).send(text);
        });
      };
    },

    close(): void {
      unshare();
      unsubscribe();
      registry.clear();
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
