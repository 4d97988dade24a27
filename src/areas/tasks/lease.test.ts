import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unguarded } from '../auth/authorize.js';
import { Kysely, SqliteDialect } from 'kysely';
import SQLite from 'better-sqlite3';
import { createTestApp, waitFor } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import type { Ctx } from '../../context.js';
import type { Database } from '../../infra/db/schema.js';
import { runProcess } from '../../infra/git/exec.js';
import { GitError } from '../../infra/git/errors.js';
import { createLogger } from '../../infra/logger.js';
import { SYNC_TASK } from './schema.js';
import { findTask } from './store.js';
import type { TaskRow } from './store.js';
import { LeaseKeeper, LeaseLostError } from './lease.js';
import { Worker } from './worker.js';
import type { TaskDefinition, TaskHandler, TaskRun, WorkerOptions } from './worker.js';

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

function worker(options: WorkerOptions, handlers: Record<string, TaskHandler | TaskDefinition>) {
  const { deps, tasks } = t.runtime.services;
  const w = new Worker(deps, unguarded(tasks, 'a worker'), handlers, { pollMs: 10, ...options });
  workers.push(w);
  return w;
}

const task = (id: string) => findTask(t.db, 'default', id);

/** What another worker does when it claims a task whose lease ran out. */
async function stealLease(id: string, by = 'thief') {
  await t.db
    .updateTable('tasks')
    .set({ locked_by: by, lease_expires_at: new Date(Date.now() + 60_000).toISOString() })
    .where('id', '=', id)
    .execute();
}

async function versionsOf(name: string): Promise<string[]> {
  const res = await t.app.inject({ url: `/api/v1/packages/${name}`, headers: t.admin });
  return res.json().versions.map((v: { version: string }) => v.version);
}

describe('task leases', () => {
  it('a task whose lease is taken over stops: its git process is killed, the task left to the new owner', async () => {
    let seen: { aborted: boolean; error: unknown; ms: number } | null = null;
    const handlers = {
      'test.long': async (row: TaskRow, _payload: unknown, { signal }: TaskRun) => {
        await stealLease(row.id);
        const started = Date.now();
        try {
          // No signal passed: the worker's signal reaches every process the handler starts.
          await runProcess('sleep', ['30'], 'sleep');
        } catch (error) {
          seen = { aborted: signal.aborted, error, ms: Date.now() - started };
          throw error;
        }
        return { finished: true };
      },
    };
    const queued = await t.runtime.services.tasks.enqueue(ctx, 'test.long', {});
    const w = worker({ leaseMs: 300 }, handlers);
    w.start();
    await waitFor(
      async () => seen,
      (s) => s !== null,
    );
    await w.stop();
    const stopped = seen as unknown as { aborted: boolean; error: unknown; ms: number };
    expect(stopped.aborted).toBe(true);
    expect(stopped.error).toBeInstanceOf(GitError);
    expect((stopped.error as GitError).kind).toBe('aborted');
    expect(stopped.ms).toBeLessThan(5_000);
    // The stale worker neither finished nor failed the task: it is the thief's.
    expect(await task(queued.id)).toMatchObject({
      status: 'running',
      locked_by: 'thief',
      attempts: 1,
      error: null,
      result: null,
      finished_at: null,
    });
  });

  it('a sync whose lease is taken over writes nothing; the worker that took it over finishes it once', async () => {
    const name = 'acme/leased';
    const r = new GitFixture(name);
    repos.push(r);
    r.release('1.0.0');
    const { sync } = t.runtime.services;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/packages',
      headers: t.admin,
      payload: { name, repository_url: r.url, type: 'git' },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().sync_task.id as string;
    const packageId = JSON.parse((await task(id))!.payload).package_id as string;

    let stale: { aborted: boolean; error: string } | null = null;
    const runs: string[] = [];
    const stealing = worker(
      { leaseMs: 90 },
      {
        [SYNC_TASK]: async (row: TaskRow, payload: Record<string, unknown>, run: TaskRun) => {
          runs.push('stale');
          await stealLease(row.id);
          try {
            return await sync.sync(row.tenant_id, String(payload.package_id), run);
          } catch (err) {
            stale = { aborted: run.signal.aborted, error: String(err) };
            throw err;
          }
        },
      },
    );
    stealing.start();
    await waitFor(
      async () => stale,
      (s) => s !== null,
    );
    await stealing.stop();
    expect(stale).toMatchObject({ aborted: true });
    expect(await versionsOf(name)).toEqual([]);
    const row = await task(id);
    expect(row).toMatchObject({ status: 'running', locked_by: 'thief', finished_at: null });
    // The stale attempt did not mark the package failed: its new owner reports on it.
    const pkg = await t.app.inject({ url: `/api/v1/packages/${name}`, headers: t.admin });
    expect(pkg.json().sync_status).not.toBe('failed');

    // The thief dies in turn; a healthy worker takes the task after its lease and finishes it.
    await t.db
      .updateTable('tasks')
      .set({ lease_expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', id)
      .execute();
    const healthy = worker(
      {},
      {
        [SYNC_TASK]: async (row: TaskRow, payload: Record<string, unknown>, run: TaskRun) => {
          runs.push('healthy');
          return sync.sync(row.tenant_id, String(payload.package_id), run);
        },
      },
    );
    healthy.start();
    const done = await waitFor(
      () => task(id),
      (row) => row?.status === 'done',
    );
    await healthy.stop();
    expect(done).toMatchObject({ attempts: 2, error: null, locked_by: null });
    expect(runs).toEqual(['stale', 'healthy']);
    expect(await versionsOf(name)).toEqual(['1.0.0', 'dev-main']);
    expect(packageId).toBeTruthy();
  });

  it('renewals that keep failing stop the task once its lease runs out, and say so in the log', async () => {
    // A database that cannot be reached: a real connection, closed.
    const gone = new Kysely<Database>({
      dialect: new SqliteDialect({ database: new SQLite(':memory:') }),
    });
    await gone.destroy();
    const lines: string[] = [];
    const log = createLogger(
      'info',
      new Writable({
        write(chunk: Buffer, _enc, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    );
    const now = Date.now();
    const row = {
      id: 'lease-test',
      type: 'test.any',
      tenant_id: 'default',
      lease_expires_at: new Date(now + 300).toISOString(),
    } as TaskRow;
    const lease = new LeaseKeeper({ db: gone, log }, row, 'me', 300);
    try {
      await waitFor(
        async () => lease.signal.aborted,
        (aborted) => aborted,
        { timeoutMs: 5_000, intervalMs: 10 },
      );
    } finally {
      lease.stop();
    }
    // It held on while the lease still held (one failure is retried), then stopped.
    expect(Date.now() - now).toBeGreaterThanOrEqual(150);
    expect(lease.signal.reason).toBeInstanceOf(LeaseLostError);
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged.at(-1)).toMatchObject({
      task: 'lease-test',
      type: 'test.any',
      tenant: 'default',
      worker: 'me',
      msg: 'task lease renewal failed and the lease runs out; stopping the task',
    });
    expect(logged.at(-1)!.err).toBeDefined();
  });
});
