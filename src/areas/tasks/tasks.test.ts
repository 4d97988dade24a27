import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unguarded } from '../auth/authorize.js';
import { createTestApp, waitFor } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import { createCustomer } from '../../../test/factories.js';
import { newId } from '../../infra/crypto.js';
import { Scheduler } from './scheduler.js';
import { Worker } from './worker.js';

// The app's own worker is off: tasks stay where the test puts them until a test worker runs.
let t: TestApp;
const repos: GitFixture[] = [];
beforeAll(async () => {
  t = await createTestApp({ WORKER: 'off' });
});
afterAll(async () => {
  await t.close();
  repos.forEach((r) => r.remove());
});

const get = (url: string, headers: Record<string, string> = t.admin) =>
  t.app.inject({ url: `/api/v1${url}`, headers });
const post = (url: string, payload?: object, headers: Record<string, string> = t.admin) =>
  t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers, payload });

async function addPackage(name: string) {
  const r = new GitFixture(name);
  repos.push(r);
  r.release('1.0.0');
  const res = await post('/packages', { name, repository_url: r.url, type: 'git' });
  expect(res.statusCode).toBe(201);
  return r;
}

function testWorker() {
  const { deps, tasks, worker } = t.runtime.services;
  return new Worker(deps, unguarded(tasks, 'a worker'), worker.definitions, {
    pollMs: 20,
    backoffBaseMs: 20,
  });
}

describe('tasks REST API', () => {
  it('requires a token, and viewer tokens may only read', async () => {
    expect((await get('/tasks', {})).statusCode).toBe(401);
    expect((await post('/tasks/cleanup', {}, {})).json().code).toBe('UNAUTHORIZED');
    const issued = await post('/team/tokens', { name: 'viewer', level: 'viewer' });
    expect(issued.statusCode).toBe(201);
    const viewer = { authorization: `Bearer ${issued.json().plain_token}` };
    expect((await get('/tasks', viewer)).statusCode).toBe(200);
    expect((await get('/tasks/failed', viewer)).statusCode).toBe(200);
    for (const [url, body] of [
      ['/tasks', { type: 'cleanup', payload: {} }],
      ['/tasks/sync-all', {}],
      ['/tasks/cleanup', {}],
    ] as const) {
      const res = await post(url, body, viewer);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('FORBIDDEN');
    }
    expect((await get('/tasks')).json().pagination.total).toBe(0);
  });

  it('validates POST /tasks per type', async () => {
    await addPackage('acme/valid');
    const cases: [object, string][] = [
      [{ type: 'nope', payload: {} }, 'type'],
      [{ type: 'cleanup', payload: {}, extra: 1 }, 'extra'],
      [{ type: 'package.sync', payload: {} }, 'payload.package'],
      [{ type: 'package.sync', payload: { package: 42 } }, 'payload.package'],
      [{ type: 'package.sync', payload: { package: 'Not A Name' } }, 'payload.package'],
      [{ type: 'package.sync', payload: { package: 'acme/unknown' } }, 'payload.package'],
      [{ type: 'package.sync', payload: { package: 'acme/valid', x: 1 } }, 'payload.x'],
      [{ type: 'cleanup', payload: { older_than: 3 } }, 'payload.older_than'],
      [{ type: 'packages.sync_all', payload: { all: true } }, 'payload.all'],
    ];
    for (const [body, field] of cases) {
      const res = await post('/tasks', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'validation_error', code: 'VALIDATION_ERROR' });
      expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
    const unknown = await post('/tasks', {
      type: 'package.sync',
      payload: { package: 'acme/unknown' },
    });
    expect(unknown.json().message).toMatch(/unknown package acme\/unknown/);
  });

  it('queues, deduplicates, lists, filters and shows tasks', async () => {
    await addPackage('acme/listed');
    const sync = await post('/tasks', {
      type: 'package.sync',
      payload: { package: 'acme/listed' },
    });
    expect(sync.statusCode).toBe(201);
    const task = sync.json();
    expect(task).toMatchObject({
      type: 'package.sync',
      status: 'pending',
      attempts: 0,
      max_attempts: 3,
      error: null,
      result: null,
      payload: { package: 'acme/listed' },
    });
    expect(task.created_at).toMatch(/Z$/);
    expect(task.run_after).toMatch(/Z$/);
    // The package's own sync (queued when it was added) is the same work: same task.
    const viaPackage = await post('/packages/acme/listed/sync');
    expect(viaPackage.json().id).toBe(task.id);

    const all = await post('/tasks/sync-all');
    expect(all.statusCode).toBe(202);
    expect(all.json()).toMatchObject({ type: 'packages.sync_all', status: 'pending' });
    expect((await post('/tasks/sync-all')).json().id).toBe(all.json().id);
    expect((await post('/tasks', { type: 'packages.sync_all' })).json().id).toBe(all.json().id);
    const cleanup = await post('/tasks/cleanup');
    expect(cleanup.statusCode).toBe(202);
    expect(cleanup.json().type).toBe('cleanup');
    const viaCreate = await post('/tasks', { type: 'cleanup', payload: {} });
    expect(viaCreate.statusCode).toBe(201);
    expect(viaCreate.json().id).toBe(cleanup.json().id);

    const list = await get('/tasks');
    expect(list.statusCode).toBe(200);
    const types = list.json().data.map((d: { type: string }) => d.type);
    expect(types.slice(0, 2)).toEqual(['cleanup', 'packages.sync_all']);
    expect(list.json().pagination).toMatchObject({ page: 1, per_page: 25 });
    const total = list.json().pagination.total;
    const paged = await get('/tasks?per_page=1&page=2');
    expect(paged.json().data[0].type).toBe('packages.sync_all');
    expect(paged.json().pagination).toMatchObject({ page: 2, per_page: 1, total });

    const byType = await get('/tasks?type=cleanup');
    expect(byType.json().data.map((d: { id: string }) => d.id)).toEqual([cleanup.json().id]);
    const byStatus = await get('/tasks?status=pending&type=package.sync');
    expect(byStatus.json().data.map((d: { id: string }) => d.id)).toContain(task.id);
    expect((await get('/tasks/pending')).json().pagination.total).toBe(total);
    expect((await get('/tasks/running')).json().data).toEqual([]);
    expect((await get('/tasks/failed')).json().data).toEqual([]);
    expect((await get('/tasks?status=bogus')).statusCode).toBe(400);
    expect((await get('/tasks?per_page=101')).statusCode).toBe(400);
    expect((await get('/tasks/pending?per_page=101')).statusCode).toBe(400);

    const one = await get(`/tasks/${task.id}`);
    expect(one.json()).toEqual(task);
    const missing = await get('/tasks/nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      error: 'not_found',
      code: 'NOT_FOUND',
      message: 'Task not found',
    });
  });

  it('runs sync_all and cleanup: one sync per package, expired tokens, old tasks and deliveries removed', async () => {
    await addPackage('acme/second');
    const { db } = t;
    const customer = await createCustomer(t, 'Cleanup');
    const past = new Date(Date.now() - 60_000).toISOString();
    const future = new Date(Date.now() + 86_400_000).toISOString();
    for (const [id, expires] of [
      ['tok-old', past],
      ['tok-new', future],
      ['tok-never', null],
    ] as const) {
      await db
        .insertInto('customer_tokens')
        .values({
          id,
          tenant_id: 'default',
          customer_id: customer.id,
          name: id,
          scope: 'download',
          package_scopes: '[]',
          token_digest: newId(),
          expires_at: expires,
          created_at: past,
          last_used_at: null,
        })
        .execute();
    }
    const longAgo = new Date(Date.now() - 40 * 86_400_000).toISOString();
    for (const [id, finished] of [
      ['old-done', longAgo],
      ['recent-done', past],
    ] as const) {
      await db
        .insertInto('tasks')
        .values({
          id,
          tenant_id: 'default',
          type: 'cleanup',
          payload: '{}',
          status: 'done',
          attempts: 1,
          error: null,
          result: null,
          dedupe_key: null,
          created_at: longAgo,
          started_at: longAgo,
          finished_at: finished,
          locked_by: null,
          lease_expires_at: null,
          run_after: longAgo,
        })
        .execute();
    }

    for (const [id, received] of [
      ['delivery-old', longAgo],
      ['delivery-recent', past],
    ] as const) {
      await db
        .insertInto('webhook_deliveries')
        .values({
          id,
          tenant_id: 'default',
          provider: 'github',
          event: 'push',
          delivery_id: id,
          signature_ok: 1,
          status: 'ignored',
          message: null,
          matched_packages: '[]',
          duration_ms: 1,
          received_at: received,
        })
        .execute();
    }

    // Every package has its first sync pending: sync_all queues nothing new.
    expect(await unguarded(t.runtime.services.tasks, 'background work').syncAll('default')).toEqual(
      { packages: 3, queued: 0 },
    );
    const all = (await post('/tasks/sync-all')).json();
    const cleanup = (await post('/tasks/cleanup')).json();
    const worker = testWorker();
    worker.start();
    try {
      const done = await waitFor(
        () => get(`/tasks/${cleanup.id}`),
        (r) => r.json().status === 'done',
      );
      expect(done.json().result).toEqual({
        expired_tokens: 1,
        old_tasks: 1,
        old_webhook_deliveries: 1,
        orphan_archives: 0,
        old_audit_entries: 0,
        old_events: 0,
        old_webhook_event_deliveries: 0,
      });
      const syncAll = await waitFor(
        () => get(`/tasks/${all.id}`),
        (r) => r.json().status === 'done',
      );
      // Syncs still pending when it ran were not queued again.
      const { packages, queued } = syncAll.json().result;
      expect(packages).toBe(3);
      await waitFor(
        () => get('/tasks?type=package.sync'),
        (r) =>
          r.json().data.length === 3 + queued &&
          r.json().data.every((d: { status: string }) => d.status === 'done'),
      );
    } finally {
      await worker.stop();
    }
    const tokens = await db.selectFrom('customer_tokens').select('id').orderBy('id').execute();
    expect(tokens.map((r) => r.id)).toEqual(['tok-never', 'tok-new']);
    expect((await get('/tasks/old-done')).statusCode).toBe(404);
    expect((await get('/tasks/recent-done')).statusCode).toBe(200);
  });
});

describe('scheduler', () => {
  let s: TestApp;
  beforeAll(async () => {
    s = await createTestApp({ WORKER: 'off' });
  });
  afterAll(async () => s.close());

  it('queues sync_all per interval and cleanup daily, once across several nodes', async () => {
    const { deps, tasks } = s.runtime.services;
    const nodes = [1, 2, 3].map(
      () => new Scheduler(deps, unguarded(tasks, 'a scheduler'), { syncIntervalMinutes: 15 }),
    );
    const at = new Date('2026-03-01T10:01:00.000Z');
    const created = await Promise.all(nodes.map((n) => n.tick(at)));
    expect(created.reduce((a, b) => a + b, 0)).toBe(2);
    const count = async (type: string) =>
      (await s.db.selectFrom('tasks').selectAll().where('type', '=', type).execute()).length;
    expect(await count('packages.sync_all')).toBe(1);
    expect(await count('cleanup')).toBe(1);

    // Still pending: nothing new, even in the next period.
    expect(await nodes[0]!.tick(new Date('2026-03-01T10:16:00.000Z'))).toBe(0);
    await s.db
      .updateTable('tasks')
      .set({ status: 'done', finished_at: at.toISOString() })
      .execute();
    // Same period again: the period's task exists already.
    expect(await nodes[1]!.tick(new Date('2026-03-01T10:14:00.000Z'))).toBe(0);
    // Next period: a new sync_all, but cleanup waits for the next day.
    const next = await Promise.all(nodes.map((n) => n.tick(new Date('2026-03-01T10:16:00.000Z'))));
    expect(next.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await count('packages.sync_all')).toBe(2);
    expect(await count('cleanup')).toBe(1);

    const off = new Scheduler(deps, unguarded(tasks, 'a scheduler'), { syncIntervalMinutes: 0 });
    await s.db
      .updateTable('tasks')
      .set({ status: 'done', finished_at: at.toISOString() })
      .execute();
    expect(await off.tick(new Date('2026-03-02T00:00:01.000Z'))).toBe(1);
    expect(await count('packages.sync_all')).toBe(2);
    expect(await count('cleanup')).toBe(2);
  });
});
