import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AggregatorRegistry } from 'prom-client';
import type { Counter, Gauge } from 'prom-client';
import { createTestApp } from '../../test/helpers.js';
import type { TestApp } from '../../test/helpers.js';
import { DEFAULT_TENANT_ID } from '../infra/db/schema.js';
import { createMetrics, isLoopback } from './metrics.js';

let t: TestApp;
let other: TestApp;
let proxied: TestApp;
beforeAll(async () => {
  [t, other, proxied] = await Promise.all([
    createTestApp({ WORKER: 'off' }),
    createTestApp({ WORKER: 'off', METRICS_TOKEN: 'scrape-secret-42' }),
    createTestApp({ WORKER: 'off', TRUST_PROXY: '127.0.0.1' }),
  ]);
});
afterAll(async () => Promise.all([t.close(), other.close(), proxied.close()]));

async function scrape(app: TestApp, headers: Record<string, string> = {}) {
  const res = await app.app.inject({ url: '/metrics', headers });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain/);
  return res.body;
}

/** The value of one sample, e.g. sample(text, 'packyard_tasks{status="pending"}'). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  it('counts requests per route pattern and status, with a duration histogram', async () => {
    await t.app.inject({ url: '/api/v1/license', headers: t.admin });
    await t.app.inject({ url: '/api/v1/license', headers: t.admin });
    await t.app.inject({ url: '/api/v1/customers/nope', headers: t.admin });
    await t.app.inject({ url: '/no/such/thing' });
    const text = await scrape(t);
    expect(
      sample(
        text,
        'packyard_http_requests_total{method="GET",route="/api/v1/license",status="200"}',
      ),
    ).toBe(2);
    expect(
      sample(
        text,
        'packyard_http_requests_total{method="GET",route="/api/v1/customers/:id",status="404"}',
      ),
    ).toBe(1);
    expect(
      sample(text, 'packyard_http_requests_total{method="GET",route="<unmatched>",status="404"}'),
    ).toBe(1);
    expect(
      sample(
        text,
        'packyard_http_request_duration_seconds_count{method="GET",route="/api/v1/license",status="200"}',
      ),
    ).toBe(2);
    expect(text).toContain('packyard_http_request_duration_seconds_bucket{le="0.005",method="GET"');
  });

  it('counts p2 answers of the fast path, which bypasses the router', async () => {
    const before = sample(await scrape(t), 'packyard_p2_fast_path_responses_total') ?? 0;
    t.app.p2FastPath.hits += 3;
    expect(sample(await scrape(t), 'packyard_p2_fast_path_responses_total')).toBe(before + 3);
  });

  it('reports the task queue by status from the database', async () => {
    const ctx = { tenantId: DEFAULT_TENANT_ID, actor: { kind: 'system' as const, id: null } };
    const before = sample(await scrape(t), 'packyard_tasks{status="pending"}') ?? 0;
    await t.runtime.services.tasks.enqueue(ctx, 'metrics-test', {});
    const text = await scrape(t);
    expect(sample(text, 'packyard_tasks{status="pending"}')).toBe(before + 1);
    expect(sample(text, 'packyard_tasks{status="failed"}')).toBe(0);
  });

  it('counts syncs by status, the last sync time, and downloads served', async () => {
    const events = t.runtime.services.deps.events;
    const at = '2026-11-22T10:00:00.000Z';
    const synced = {
      type: 'package.synced' as const,
      tenantId: DEFAULT_TENANT_ID,
      package: 'acme/lib',
      versionsAdded: [],
      versionsRemoved: [],
      at,
    };
    events.publish({ ...synced, status: 'ok', error: null, durationMs: 1500 });
    events.publish({ ...synced, status: 'failed', error: 'clone failed' });
    events.publish({ ...synced, status: 'failed', error: 'clone failed' });
    events.publish({
      type: 'customer.activity',
      tenantId: DEFAULT_TENANT_ID,
      customerId: 'c1',
      activity: 'DOWNLOAD',
      package: 'acme/lib',
      version: '1.0.0',
      at,
    });
    const text = await scrape(t);
    expect(sample(text, 'packyard_syncs_total{status="ok"}')).toBe(1);
    expect(sample(text, 'packyard_sync_duration_seconds_count{status="ok"}')).toBe(1);
    expect(sample(text, 'packyard_sync_duration_seconds_sum{status="ok"}')).toBe(1.5);
    expect(sample(text, 'packyard_sync_duration_seconds_bucket{le="2.5",status="ok"}')).toBe(1);
    expect(sample(text, 'packyard_syncs_total{status="failed"}')).toBe(2);
    expect(sample(text, 'packyard_last_sync_timestamp_seconds{status="failed"}')).toBe(
      Date.parse(at) / 1000,
    );
    expect(sample(text, 'packyard_downloads_total')).toBe(1);
    // Each app has its own registry and its own events: the other app saw none of it.
    const theirs = await scrape(other, { authorization: 'Bearer scrape-secret-42' });
    expect(sample(theirs, 'packyard_downloads_total')).toBe(0);
    expect(sample(theirs, 'packyard_syncs_total{status="ok"}')).toBeUndefined();
  });

  it('needs no token by default, and the METRICS_TOKEN bearer when that is set', async () => {
    expect((await other.app.inject({ url: '/metrics' })).statusCode).toBe(401);
    const wrong = await other.app.inject({
      url: '/metrics',
      headers: { authorization: 'Bearer scrape-secret-43' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('UNAUTHORIZED');
    const admin = await other.app.inject({ url: '/metrics', headers: other.admin });
    expect(admin.statusCode).toBe(401);
    await scrape(other, { authorization: 'Bearer scrape-secret-42' });
  });
});

describe('who may scrape GET /metrics', () => {
  const from = (app: TestApp, remoteAddress: string, headers: Record<string, string> = {}) =>
    app.app.inject({ url: '/metrics', remoteAddress, headers });

  it('answers loopback addresses only when METRICS_TOKEN is unset', async () => {
    for (const ip of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      expect((await from(t, ip)).statusCode, ip).toBe(200);
    }
    for (const ip of ['10.1.2.3', '192.168.0.7', '203.0.113.5', '::ffff:10.0.0.1', 'fe80::1']) {
      const res = await from(t, ip);
      expect(res.statusCode, ip).toBe(403);
      expect(res.json()).toMatchObject({ error: 'forbidden', code: 'FORBIDDEN' });
      expect(res.json().message).toContain('METRICS_TOKEN');
    }
  });

  it('takes the METRICS_TOKEN bearer from any address, and nothing else', async () => {
    const bearer = { authorization: 'Bearer scrape-secret-42' };
    expect((await from(other, '203.0.113.5', bearer)).statusCode).toBe(200);
    expect((await from(other, '203.0.113.5')).statusCode).toBe(401);
    // Loopback is no substitute for the token once it is set.
    expect((await from(other, '127.0.0.1')).statusCode).toBe(401);
  });

  it('judges the client TRUST_PROXY names, not the proxy in front of it', async () => {
    const via = (client: string) => from(proxied, '127.0.0.1', { 'x-forwarded-for': client });
    expect((await via('203.0.113.9')).statusCode).toBe(403);
    expect((await via('127.0.0.1')).statusCode).toBe(200);
    // An untrusted sender's X-Forwarded-For is ignored: it cannot claim to be loopback.
    const forged = await from(proxied, '10.0.0.5', { 'x-forwarded-for': '127.0.0.1' });
    expect(forged.statusCode).toBe(403);
  });

  it('reads anything that is not an IP address as not loopback', () => {
    expect(isLoopback(undefined)).toBe(false);
    expect(isLoopback('')).toBe(false);
    expect(isLoopback('localhost')).toBe(false);
    expect(isLoopback('127.0.0.1, 10.0.0.1')).toBe(false);
    expect(isLoopback('0:0:0:0:0:0:0:1')).toBe(true);
  });
});

describe('metrics aggregated over the processes of a cluster', () => {
  it('sums counters and histograms; last sync is the newest, the task queue any one answer', async () => {
    // Two processes' registries, as the primary's AggregatorRegistry.clusterMetrics() merges them.
    const a = createMetrics(t.runtime.services, { hits: 3 }, { processMetrics: true });
    const b = createMetrics(t.runtime.services, { hits: 4 }, { processMetrics: true });
    try {
      const requests = (m: typeof a) =>
        m.registry.getSingleMetric('packyard_http_requests_total') as Counter<string>;
      const lastSync = (m: typeof a) =>
        m.registry.getSingleMetric('packyard_last_sync_timestamp_seconds') as Gauge<string>;
      const labels = { method: 'GET', route: '/healthz', status: '200' };
      requests(a).inc(labels, 5);
      requests(b).inc(labels, 7);
      lastSync(a).set({ status: 'ok' }, 1_700_000_100);
      lastSync(b).set({ status: 'ok' }, 1_700_000_000);
      const ctx = { tenantId: DEFAULT_TENANT_ID, actor: { kind: 'system' as const, id: null } };
      await t.runtime.services.tasks.enqueue(ctx, 'metrics-aggregate-test', {});
      const [jsonA, jsonB] = [
        await a.registry.getMetricsAsJSON(),
        await b.registry.getMetricsAsJSON(),
      ];
      const merged = await AggregatorRegistry.aggregate([jsonA, jsonB]).metrics();
      const own = await AggregatorRegistry.aggregate([jsonA]).metrics();
      expect(
        sample(merged, 'packyard_http_requests_total{method="GET",route="/healthz",status="200"}'),
      ).toBe(12);
      expect(sample(merged, 'packyard_p2_fast_path_responses_total')).toBe(7);
      expect(sample(merged, 'packyard_last_sync_timestamp_seconds{status="ok"}')).toBe(
        1_700_000_100,
      );
      // Both read the same database: the figure is that, not twice it.
      const pending = sample(own, 'packyard_tasks{status="pending"}');
      expect(pending).toBeGreaterThanOrEqual(1);
      expect(sample(merged, 'packyard_tasks{status="pending"}')).toBe(pending);
      const cpu = (json: typeof jsonA) =>
        json.find((m) => m.name === 'process_cpu_seconds_total')?.values[0]?.value ?? NaN;
      expect(sample(merged, 'process_cpu_seconds_total')).toBeCloseTo(cpu(jsonA) + cpu(jsonB), 6);
      // prom-client omits the start time; here it is the youngest process's.
      expect(sample(merged, 'process_start_time_seconds')).toBeCloseTo(
        Math.round(Date.now() / 1000 - process.uptime()),
        -1,
      );
      expect(sample(merged, 'nodejs_eventloop_lag_max_seconds')).toBeGreaterThanOrEqual(0);
    } finally {
      a.close();
      b.close();
    }
  });
});
