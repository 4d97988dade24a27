import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/helpers.js';
import type { TestApp } from '../../test/helpers.js';
import { DEFAULT_TENANT_ID } from '../infra/db/schema.js';

let t: TestApp;
let other: TestApp;
beforeAll(async () => {
  [t, other] = await Promise.all([
    createTestApp({ WORKER: 'off' }),
    createTestApp({ WORKER: 'off', METRICS_TOKEN: 'scrape-secret-42' }),
  ]);
});
afterAll(async () => Promise.all([t.close(), other.close()]));

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
