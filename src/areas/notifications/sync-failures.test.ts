import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import type { FakeSmtp } from '../../../test/fakes/smtp.js';
import { failedSync, mailingRegistry, notifierIdle } from '../../../test/notify-helpers.js';
import type { MailingRegistry } from '../../../test/notify-helpers.js';

/** The package's failed `package.synced` events in the feed, oldest first. */
async function failedEvents(t: TestApp, pkg: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/v1/events?type=package.synced&limit=500',
    headers: t.admin,
  });
  const events = res.json<{ data: { data: Record<string, unknown> }[] }>().data;
  return events.map((e) => e.data).filter((d) => d.package === pkg && d.status === 'failed');
}

describe('"failed to sync three times in a row" counts syncs, not attempts', () => {
  let r: MailingRegistry;
  let t: TestApp;
  let smtp: FakeSmtp;

  beforeAll(async () => {
    r = await mailingRegistry('acme/retried', ['ops@vendor.test']);
    ({ t, smtp } = r);
    fs.renameSync(r.repo.dir, r.moved);
  });
  afterAll(async () => {
    if (fs.existsSync(r.moved)) fs.renameSync(r.moved, r.repo.dir);
    await r.close();
  });

  it('does not mail one sync whose three attempts failed', async () => {
    const task = await failedSync(t, 'acme/retried');
    expect(task).toMatchObject({ status: 'failed', attempts: 3, max_attempts: 3 });
    // Each attempt is in the feed; the ones the task tried again say so.
    const events = await failedEvents(t, 'acme/retried');
    expect(events.map((e) => e.will_retry)).toEqual([true, true, false]);
    await notifierIdle(t);
    expect(smtp.received).toHaveLength(0);
  });

  it('mails when the third sync fails for good, not at its first attempts', async () => {
    await failedSync(t, 'acme/retried');
    await notifierIdle(t);
    expect(smtp.received).toHaveLength(0);
    const attemptsSeen: number[] = [];
    await failedSync(t, 'acme/retried', async (task) => {
      attemptsSeen.push(task.attempts);
      await notifierIdle(t);
      expect(smtp.received).toHaveLength(0);
    });
    expect(attemptsSeen).toEqual([1, 2]);
    await waitFor(
      async () => smtp.received.length,
      (n) => n >= 1,
    );
    await notifierIdle(t);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.mail.subject).toBe(
      '[Packyard] acme/retried failed to sync 3 times in a row',
    );
  });
});
