import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unguarded } from '../auth/authorize.js';
import { createTestApp, waitFor } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import type { Ctx } from '../../context.js';
import { findPackageByName } from '../packages/catalog.js';
import { claimNextTask, findTask } from './store.js';
import { Worker } from './worker.js';
import type { TaskDefinition, TaskHandler, WorkerOptions } from './worker.js';

// The app's own worker is off; each test runs the workers it needs.
let t: TestApp;
const repos: GitFixture[] = [];
const workers: Worker[] = [];
const ctx: Ctx = { tenantId: 'default', actor: { kind: 'system', id: null } };
beforeAll(async () => {
  t = await createTestApp({ WORKER: 'off' });
});
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await t.close();
  repos.forEach((r) => r.remove());
});

/** A worker with the app's task handlers (or others), as another process would run it. */
function worker(
  options: WorkerOptions = {},
  handlers: Record<string, TaskHandler | TaskDefinition> = t.runtime.services.worker.definitions,
) {
  const { deps, tasks } = t.runtime.services;
  const w = new Worker(deps, unguarded(tasks, 'a worker'), handlers, { pollMs: 10, ...options });
  workers.push(w);
  return w;
}

const task = (id: string) => findTask(t.db, 'default', id);

async function versionsOf(name: string): Promise<string[]> {
  const res = await t.app.inject({ url: `/api/v1/packages/${name}`, headers: t.admin });
  return res.json().versions.map((v: { version: string }) => v.version);
}

/** A package whose first sync has run (by a worker started and stopped for it). */
async function syncedPackage(name: string) {
  const r = new GitFixture(name);
  repos.push(r);
  r.release('1.0.0');
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/packages',
    headers: t.admin,
    payload: { name, repository_url: r.url, type: 'git' },
  });
  expect(res.statusCode).toBe(201);
  const w = worker();
  w.start();
  await waitFor(
    () => task(res.json().sync_task.id),
    (row) => row?.status === 'done',
  );
  await w.stop();
  expect(await versionsOf(name)).toEqual(['1.0.0', 'dev-main']);
  return r;
}

const requestSync = async (name: string) =>
  (
    await t.app.inject({
      method: 'POST',
      url: `/api/v1/packages/${name}/sync`,
      headers: t.admin,
    })
  ).json<{ id: string; status: string }>();

describe('worker', () => {
  it('two workers never run one task twice', async () => {
    const runs = new Map<string, number>();
    const byWorker = new Map<string, number>();
    const handlers = {
      'test.record': async (row: { id: string; locked_by: string | null }) => {
        runs.set(row.id, (runs.get(row.id) ?? 0) + 1);
        byWorker.set(row.locked_by ?? '', (byWorker.get(row.locked_by ?? '') ?? 0) + 1);
        await new Promise((r) => setTimeout(r, Math.random() * 5));
        return { ran: row.id };
      },
    };
    const a = worker({}, handlers);
    const b = worker({}, handlers);
    const ids: string[] = [];
    for (let n = 0; n < 50; n++) {
      ids.push((await t.runtime.services.tasks.enqueue(ctx, 'test.record', { n })).id);
    }
    a.start();
    b.start();
    const { db } = t;
    await waitFor(
      () =>
        db
          .selectFrom('tasks')
          .select('status')
          .where('type', '=', 'test.record')
          .where('status', '=', 'done')
          .execute(),
      (rows) => rows.length === 50,
    );
    await Promise.all([a.stop(), b.stop()]);
    expect(runs.size).toBe(50);
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    expect(ids.every((id) => runs.get(id) === 1)).toBe(true);
    expect([...byWorker.values()].reduce((x, y) => x + y, 0)).toBe(50);
    const rows = await db
      .selectFrom('tasks')
      .selectAll()
      .where('type', '=', 'test.record')
      .execute();
    expect(rows.every((r) => r.attempts === 1 && r.locked_by === null)).toBe(true);
    expect(rows.map((r) => JSON.parse(r.result ?? 'null').ran).sort()).toEqual([...ids].sort());
  });

  it('retries a failing sync with backoff, without a duplicate, then leaves it failed', async () => {
    const r = await syncedPackage('acme/gone');
    r.remove();
    const first = await requestSync('acme/gone');
    expect(first.status).toBe('pending');

    // A long backoff: after the first failure the task waits, pending, with its error.
    const slow = worker({ backoffBaseMs: 60_000 });
    slow.start();
    const waiting = await waitFor(
      () => task(first.id),
      (row) => row?.attempts === 1 && row.status === 'pending' && row.error !== null,
    );
    await slow.stop();
    expect(waiting!.error).toMatch(/not found|does not exist|not a git repository/i);
    expect(Date.parse(waiting!.run_after)).toBeGreaterThan(Date.now() + 50_000);
    const pkg = await t.app.inject({ url: '/api/v1/packages/acme/gone', headers: t.admin });
    expect(pkg.json()).toMatchObject({ sync_status: 'failed' });

    // Asking again returns the same task (no duplicate) and lets it run without waiting.
    const again = await requestSync('acme/gone');
    expect(again.id).toBe(first.id);
    const started = Date.now();
    const fast = worker({ backoffBaseMs: 100 });
    fast.start();
    const failed = await waitFor(
      () => task(first.id),
      (row) => row?.status === 'failed',
    );
    await fast.stop();
    // Attempt 2 ran at once; attempt 3 waited 2 × 100 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(failed).toMatchObject({ attempts: 3, locked_by: null });
    expect(failed!.error).toMatch(/not found|does not exist|not a git repository/i);
    expect(failed!.finished_at).not.toBeNull();
    const rows = await t.db
      .selectFrom('tasks')
      .select('id')
      .where('dedupe_key', '=', `sync:${JSON.parse(failed!.payload).package_id}`)
      .execute();
    expect(rows.length).toBe(2); // the first sync and this one
    const shown = await t.app.inject({ url: `/api/v1/tasks/${first.id}`, headers: t.admin });
    expect(shown.json()).toMatchObject({ status: 'failed', attempts: 3, max_attempts: 3 });
    expect(await versionsOf('acme/gone')).toEqual(['1.0.0', 'dev-main']);
  });

  it('a worker killed mid-sync changes nothing; another takes the task after its lease', async () => {
    const r = await syncedPackage('acme/killed');
    r.release('1.1.0');
    const queued = await requestSync('acme/killed');
    const { deps, sync } = t.runtime.services;

    // A worker claims the task with a short lease, starts the sync (fetches the new tag)
    // and dies before the final transaction: it never finishes nor renews its lease.
    const now = new Date();
    const claimed = await claimNextTask(
      deps.db,
      deps.dialect,
      'dead-worker',
      now.toISOString(),
      new Date(now.getTime() + 3000).toISOString(),
    );
    expect(claimed?.id).toBe(queued.id);
    const pkg = await findPackageByName(deps.db, 'default', 'acme/killed');
    const inspected = await sync.inspect(pkg!);
    expect(inspected.analysis.candidates.map((c) => c.version)).toContain('1.1.0');
    expect(await versionsOf('acme/killed')).toEqual(['1.0.0', 'dev-main']);

    // A live worker leaves the task alone while the lease holds, then takes it up.
    const w = worker();
    w.start();
    await new Promise((res) => setTimeout(res, 300));
    expect(await task(queued.id)).toMatchObject({ status: 'running', locked_by: 'dead-worker' });
    expect(await versionsOf('acme/killed')).toEqual(['1.0.0', 'dev-main']);
    const done = await waitFor(
      () => task(queued.id),
      (row) => row?.status === 'done',
    );
    await w.stop();
    expect(done).toMatchObject({ attempts: 2, error: null, locked_by: null });
    expect(await versionsOf('acme/killed')).toEqual(['1.1.0', '1.0.0', 'dev-main']);
  });
});
