import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { insertPackageRow } from '../../../test/factories.js';
import { claimNextTask } from '../tasks/store.js';

const SECRET = 'push-during-sync-secret';

describe('a push arriving while the package is being synced', () => {
  let t: TestApp;
  let packageId: string;
  beforeAll(async () => {
    // No worker: the test plays the worker, to hold a sync in the running state.
    t = await createTestApp({ GITHUB_WEBHOOK_SECRET: SECRET, WORKER: 'off' });
    packageId = await insertPackageRow(t, 'acme/lib');
  });
  afterAll(async () => t.close());

  const push = (delivery: string) => {
    const body = JSON.stringify({
      ref: 'refs/tags/v1.2.0',
      repository: { full_name: 'acme/lib', clone_url: 'https://git.test/acme/lib.git' },
    });
    const signature = crypto.createHmac('sha256', SECRET).update(body).digest('hex');
    return t.app.inject({
      method: 'POST',
      url: '/api/webhooks/github',
      payload: body,
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'push',
        'x-github-delivery': delivery,
        'x-hub-signature-256': `sha256=${signature}`,
      },
    });
  };
  const syncTasks = async () =>
    (await t.app.inject({ url: '/api/v1/tasks?type=package.sync', headers: t.admin })).json()
      .data as { id: string; status: string }[];

  it('queues one follow-up sync that waits for the running one, instead of reusing it', async () => {
    const { db } = t;
    const { dialect } = t.runtime.services.deps;
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/v1/packages/acme/lib/sync',
      headers: t.admin,
    });
    const future = new Date(Date.now() + 60_000).toISOString();
    const running = await claimNextTask(db, dialect, 'worker-a', new Date().toISOString(), future);
    expect(running?.id).toBe(first.json().id);

    const res = await push('delivery-1');
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ status: 'queued', packages: ['acme/lib'] });
    expect((await push('delivery-2')).statusCode).toBe(202);
    const tasks = await syncTasks();
    expect(tasks.map((task) => task.status).sort()).toEqual(['pending', 'running']);
    const followUp = tasks.find((task) => task.status === 'pending');

    // An admin's sync request still answers with the running task (docs/api.md).
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/v1/packages/acme/lib/sync',
      headers: t.admin,
    });
    expect(again.json().id).toBe(first.json().id);

    // The follow-up is not claimable while the first runs, and is once it has finished.
    const now = () => new Date().toISOString();
    expect(await claimNextTask(db, dialect, 'worker-b', now(), future)).toBeUndefined();
    // The database itself refuses a second running sync of the package (two workers racing).
    await expect(
      db
        .updateTable('tasks')
        .set({ status: 'running', lease_expires_at: future })
        .where('id', '=', followUp?.id ?? '')
        .execute(),
    ).rejects.toThrow(/unique|duplicate/i);
    await db
      .updateTable('tasks')
      .set({ status: 'done', finished_at: now() })
      .where('id', '=', first.json().id)
      .execute();
    const next = await claimNextTask(db, dialect, 'worker-b', now(), future);
    expect(next?.id).toBe(followUp?.id);
    expect(JSON.parse(next?.payload ?? '{}')).toMatchObject({ package_id: packageId });
  });
});
