import { addSyncedPackage } from './factories.js';
import { FakeSmtp } from './fakes/smtp.js';
import { GitFixture } from './fixtures/git-repo.js';
import { createTestApp, waitFor } from './helpers.js';
import type { TestApp } from './helpers.js';

/** The notifier's task type (src/areas/notifications/queue.ts). */
const NOTIFY_TASK = 'notifications.send';

/** Waits until every notification task has run: what was to be mailed has been. */
export async function notifierIdle(t: TestApp) {
  await waitFor(
    () =>
      t.db
        .selectFrom('tasks')
        .select(['status', 'run_after'])
        .where('type', '=', NOTIFY_TASK)
        .execute(),
    (rows) => rows.every((r) => r.status === 'done' || r.status === 'failed'),
  );
}

/** Counts the package's `package.synced` events with `status`. */
export async function syncEvents(t: TestApp, pkg: string, status: string) {
  const rows = await t.db
    .selectFrom('events')
    .select('data')
    .where('type', '=', 'package.synced')
    .where('package', '=', pkg)
    .execute();
  return rows.filter((r) => (JSON.parse(r.data) as { status: string }).status === status).length;
}

/** Requests a sync that succeeds and waits for its event and for its task to settle. */
export async function syncOk(t: TestApp, pkg: string) {
  const before = await syncEvents(t, pkg, 'ok');
  await t.app.inject({ method: 'POST', url: `/api/v1/packages/${pkg}/sync`, headers: t.admin });
  await waitFor(
    () => syncEvents(t, pkg, 'ok'),
    (n) => n > before,
  );
  await waitFor(
    () =>
      t.db
        .selectFrom('tasks')
        .select('id')
        .where('type', '=', 'package.sync')
        .where('status', '=', 'running')
        .execute(),
    (rows) => rows.length === 0,
  );
}

interface TaskView {
  id: string;
  status: string;
  attempts: number;
  max_attempts: number;
}

const requestSync = async (t: TestApp, pkg: string): Promise<TaskView> => {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/packages/${pkg}/sync`,
    headers: t.admin,
  });
  if (res.statusCode !== 202) throw new Error(`sync request: ${res.statusCode} ${res.body}`);
  return res.json();
};

/**
 * One sync of a package whose repository is gone, run to its end: one queued task, every attempt
 * failing. After each failed attempt it asks for the sync again, which runs the waiting retry now
 * instead of after the backoff (the same task; a request never queues a second one). `onAttempt`
 * runs after each failed attempt but the last.
 */
export async function failedSync(
  t: TestApp,
  pkg: string,
  onAttempt: (task: TaskView) => Promise<void> = async () => {},
): Promise<TaskView> {
  const { id } = await requestSync(t, pkg);
  let seen = 0;
  for (;;) {
    const task = await waitFor(
      async () =>
        (
          await t.app.inject({ method: 'GET', url: `/api/v1/tasks/${id}`, headers: t.admin })
        ).json<TaskView>(),
      (task) => task.status !== 'running' && task.attempts > seen,
    );
    seen = task.attempts;
    if (task.status !== 'pending') return task;
    await onAttempt(task);
    const again = await requestSync(t, pkg);
    if (again.id !== id) throw new Error(`a second sync task was queued: ${again.id}`);
  }
}

/** A registry that mails its recipients through a real SMTP server, holding one synced package. */
export interface MailingRegistry {
  t: TestApp;
  smtp: FakeSmtp;
  repo: GitFixture;
  /** Where the repository's folder goes while it is "removed" (renamed away). */
  moved: string;
  close(): Promise<void>;
}

/** `pkg` synced from a real git repository (1.0.0), `recipients` set; `env` for the server. */
export async function mailingRegistry(
  pkg: string,
  recipients: string[],
  env: Record<string, string> = {},
): Promise<MailingRegistry> {
  const smtp = await new FakeSmtp().start();
  const t = await createTestApp({ SMTP_URL: smtp.url, ...env });
  const repo = new GitFixture(pkg).release('1.0.0');
  await addSyncedPackage(t, pkg, repo.url);
  const set = await t.app.inject({
    method: 'PATCH',
    url: '/api/v1/settings',
    headers: t.admin,
    payload: { notification_emails: recipients },
  });
  if (set.statusCode !== 200) throw new Error(`settings: ${set.statusCode} ${set.body}`);
  return {
    t,
    smtp,
    repo,
    moved: `${repo.dir}.moved`,
    async close() {
      await t.close();
      await smtp.stop();
      repo.remove();
    },
  };
}
