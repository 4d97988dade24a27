import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudTenant, createTestApp, waitFor } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import { addSyncedPackage } from '../../../test/factories.js';
import { FakeSmtp } from '../../../test/fakes/smtp.js';
import { proxiedApp } from '../../../test/proxy-helpers.js';
import {
  failedSync,
  mailingRegistry,
  notifierIdle,
  syncEvents,
  syncOk,
} from '../../../test/notify-helpers.js';
import type { MailingRegistry } from '../../../test/notify-helpers.js';
import type { Proxied } from '../../../test/proxy-helpers.js';
import { NOTIFY_TASK } from './queue.js';

const settings = (t: TestApp, headers: Record<string, string>, payload?: object) =>
  t.app.inject({ method: payload ? 'PATCH' : 'GET', url: '/api/v1/settings', headers, payload });

describe('notification_emails setting', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ WORKER: 'off' });
  });
  afterAll(async () => t.close());

  it('is set by PATCH, shown by GET, and validated', async () => {
    expect((await settings(t, t.admin)).json().notification_emails).toEqual([]);
    const set = await settings(t, t.admin, {
      notification_emails: ['ops@vendor.test', 'Security@Vendor.test'],
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().notification_emails).toEqual(['ops@vendor.test', 'Security@Vendor.test']);
    expect((await settings(t, t.admin)).json().notification_emails).toEqual([
      'ops@vendor.test',
      'Security@Vendor.test',
    ]);
    // Other settings leave them alone.
    await settings(t, t.admin, { webhook_secrets: { github: 'x' } });
    expect((await settings(t, t.admin)).json().notification_emails).toHaveLength(2);
    const tooMany = Array.from({ length: 21 }, (_, i) => `a${i}@vendor.test`);
    for (const bad of [
      ['not-an-address'],
      ['ops@vendor.test', ''],
      [42],
      'ops@vendor.test',
      tooMany,
      ['ops@vendor.test\r\nBcc: x@evil.test'],
    ]) {
      const res = await settings(t, t.admin, { notification_emails: bad });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
    const twenty = tooMany.slice(0, 20);
    expect((await settings(t, t.admin, { notification_emails: twenty })).statusCode).toBe(200);
    const cleared = await settings(t, t.admin, { notification_emails: [] });
    expect(cleared.json().notification_emails).toEqual([]);
  });
});

describe('e-mail notifications over SMTP', () => {
  let r: MailingRegistry;
  let t: TestApp;
  let smtp: FakeSmtp;
  let repo: GitFixture;
  const moved = () => r.moved;

  beforeAll(async () => {
    r = await mailingRegistry('acme/flaky', ['ops@vendor.test', 'lead@vendor.test'], {
      MAIL_FROM: 'Registry <registry@vendor.test>',
    });
    ({ t, smtp, repo } = r);
  });
  afterAll(async () => r.close());

  it('mails once when a repository fails to sync 3 times in a row, and again after it recovers', async () => {
    fs.renameSync(repo.dir, moved());
    await failedSync(t, 'acme/flaky');
    await failedSync(t, 'acme/flaky');
    await notifierIdle(t);
    expect(smtp.received).toHaveLength(0);
    await failedSync(t, 'acme/flaky');
    await waitFor(
      async () => smtp.received.length,
      (n) => n >= 1,
    );
    const [first] = smtp.received;
    expect(first!.to.sort()).toEqual(['lead@vendor.test', 'ops@vendor.test']);
    expect(first!.from).toBe('registry@vendor.test');
    expect(first!.mail.subject).toBe('[Packyard] acme/flaky failed to sync 3 times in a row');
    expect(first!.mail.text).toContain('What to do');
    expect(first!.mail.text).toContain('http://packyard.test/admin/packages/acme/flaky');
    expect(first!.mail.html).toContain('<a href="http://packyard.test/admin/packages/acme/flaky">');
    expect(first!.mail.messageId).toMatch(/^<evt_\d{16}\.default@packyard\.test>$/);

    // A fourth failure stays quiet.
    await failedSync(t, 'acme/flaky');
    await notifierIdle(t);
    expect(smtp.received).toHaveLength(1);

    // It recovers, then fails three times again: one more mail.
    fs.renameSync(moved(), repo.dir);
    await syncOk(t, 'acme/flaky');
    fs.renameSync(repo.dir, moved());
    for (let i = 0; i < 3; i++) await failedSync(t, 'acme/flaky');
    await waitFor(
      async () => smtp.received.length,
      (n) => n >= 2,
    );
    await notifierIdle(t);
    expect(smtp.received).toHaveLength(2);
    fs.renameSync(moved(), repo.dir);
  });

  it('keeps a mail the server refused for now and sends it later; drops one refused for good', async () => {
    await syncOk(t, 'acme/flaky');
    const sent = smtp.received.length;
    smtp.refuse.push(451);
    fs.renameSync(repo.dir, moved());
    for (let i = 0; i < 3; i++) await failedSync(t, 'acme/flaky');
    // The attempt failed: the task waits for its retry, with the mail still to send.
    const waiting = await waitFor(
      () =>
        t.db
          .selectFrom('tasks')
          .select(['id', 'status', 'error'])
          .where('type', '=', NOTIFY_TASK)
          .where('status', '=', 'pending')
          .execute(),
      (rows) => rows.length === 1 && rows[0]!.error !== null,
    );
    expect(smtp.received).toHaveLength(sent);
    // Its retry comes now instead of after the backoff.
    await t.db
      .updateTable('tasks')
      .set({ run_after: new Date().toISOString() })
      .where('id', '=', waiting[0]!.id)
      .execute();
    await waitFor(
      async () => smtp.received.length,
      (n) => n > sent,
    );
    await notifierIdle(t);
    expect(smtp.received).toHaveLength(sent + 1);

    // 550 (refused for good): logged and skipped, later mails still go out.
    fs.renameSync(moved(), repo.dir);
    await syncOk(t, 'acme/flaky');
    fs.renameSync(repo.dir, moved());
    smtp.refuse.push(550);
    for (let i = 0; i < 3; i++) await failedSync(t, 'acme/flaky');
    await notifierIdle(t);
    expect(smtp.received).toHaveLength(sent + 1);
    fs.renameSync(moved(), repo.dir);
    await syncOk(t, 'acme/flaky');
    fs.renameSync(repo.dir, moved());
    for (let i = 0; i < 3; i++) await failedSync(t, 'acme/flaky');
    await waitFor(
      async () => smtp.received.length,
      (n) => n > sent + 1,
    );
    fs.renameSync(moved(), repo.dir);
  });
});

describe('vulnerability and proxy notifications', () => {
  let p: Proxied;
  let smtp: FakeSmtp;
  let repo: GitFixture;
  const subjects = () => smtp.received.map((m) => m.mail.subject);
  beforeAll(async () => {
    smtp = await new FakeSmtp().start();
    p = await proxiedApp({
      SMTP_URL: smtp.url,
      PROXY_METADATA_TTL_SECONDS: '0',
      PROXY_TIMEOUT_SECONDS: '1',
    });
    repo = new GitFixture('acme/held').release('1.0.0').release('2.0.0');
    await addSyncedPackage(p.t, 'acme/held', repo.url);
    await settings(p.t, p.t.admin, { notification_emails: ['security@vendor.test'] });
  });
  afterAll(async () => {
    await p.close();
    await smtp.stop();
    repo.remove();
  });

  it('mails an advisory that affects held versions, naming the package and versions', async () => {
    await p.api('POST', '/api/v1/advisories', {
      package: 'acme/held',
      title: 'Remote code execution',
      affected_versions: '<2.0',
      severity: 'critical',
    });
    await waitFor(
      async () => subjects(),
      (s) => s.some((x) => x?.includes('affects acme/held')),
    );
    const mail = smtp.received.find((m) => m.mail.subject?.includes('acme/held'))!;
    expect(mail.to).toEqual(['security@vendor.test']);
    expect(mail.mail.text).toContain('Package: acme/held');
    expect(mail.mail.text).toMatch(/Affected versions: .*1\.0\.0/);
    expect(mail.mail.text).not.toMatch(/Affected versions: .*2\.0\.0/);
    expect(mail.mail.text).toContain('http://packyard.test/admin/vulnerabilities');
  });

  it("mails the proxy's upstream going down, once, and coming back", async () => {
    const { auth } = await p.customer();
    expect((await p.get('/p2/psr/log.json', auth)).statusCode).toBe(200);
    p.upstream.mode = 'error-500';
    expect((await p.get('/p2/monolog/monolog.json', auth)).statusCode).toBe(502);
    expect((await p.get('/p2/monolog/monolog.json', auth)).statusCode).toBe(502);
    await waitFor(
      async () => subjects(),
      (s) => s.some((x) => x?.includes('unreachable')),
    );
    p.upstream.mode = 'ok';
    expect((await p.get('/p2/monolog/monolog.json', auth)).statusCode).toBe(200);
    await waitFor(
      async () => subjects(),
      (s) => s.some((x) => x?.includes('reachable again')),
    );
    await notifierIdle(p.t);
    const proxyMails = subjects().filter((x) => x?.includes('Public repository'));
    expect(proxyMails).toEqual([
      `[Packyard] Public repository unreachable: ${p.upstream.url}`,
      `[Packyard] Public repository reachable again: ${p.upstream.url}`,
    ]);
  });
});

describe('without SMTP_URL', () => {
  let t: TestApp;
  let repo: GitFixture;
  beforeAll(async () => {
    t = await createTestApp();
    repo = new GitFixture('acme/quiet').release('1.0.0');
    await addSyncedPackage(t, 'acme/quiet', repo.url);
    await settings(t, t.admin, { notification_emails: ['ops@vendor.test'] });
  });
  afterAll(async () => {
    await t.close();
    repo.remove();
  });

  it('sends nothing, and the event feed still has every failure', async () => {
    fs.renameSync(repo.dir, `${repo.dir}.moved`);
    for (let i = 0; i < 3; i++) await failedSync(t, 'acme/quiet');
    await notifierIdle(t);
    // Three syncs of three attempts each: every attempt is in the feed.
    expect(await syncEvents(t, 'acme/quiet', 'failed')).toBe(9);
    const cursor = await t.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', 'notifications.cursor')
      .executeTakeFirst();
    const newest = await t.db
      .selectFrom('events')
      .select('id')
      .where('type', '=', 'package.synced')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    // Handled without a mail: turning SMTP on later does not send old news.
    expect(cursor?.value).toBe(newest.id);
    fs.renameSync(`${repo.dir}.moved`, repo.dir);
  });
});

describe('usage notifications in Cloud', () => {
  let t: TestApp;
  let smtp: FakeSmtp;
  beforeAll(async () => {
    smtp = await new FakeSmtp().start();
    t = await createTestApp({
      EDITION: 'cloud',
      PLATFORM_ADMIN_TOKEN: 'platform-admin-token-0123456789',
      CLOUD_PLANS: JSON.stringify({ starter: { packages: 5 } }),
      SMTP_URL: smtp.url,
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  it("mails a tenant's own recipients at 80 % and at the limit, with links to its host", async () => {
    const a = await cloudTenant(t, 'alpha');
    const b = await cloudTenant(t, 'bravo');
    await settings(t, a.admin, { notification_emails: ['owner@alpha.test'] });
    await settings(t, b.admin, { notification_emails: ['owner@bravo.test'] });
    const add = (name: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/packages',
        headers: a.admin,
        payload: { name, type: 'artifact' },
      });
    for (let i = 1; i <= 4; i++) expect((await add(`alpha/p${i}`)).statusCode).toBe(201);
    await waitFor(
      async () => smtp.received.length,
      (n) => n >= 1,
    );
    expect((await add('alpha/p5')).statusCode).toBe(201);
    await waitFor(
      async () => smtp.received.length,
      (n) => n >= 2,
    );
    await notifierIdle(t);
    expect(smtp.received.map((m) => m.to)).toEqual([['owner@alpha.test'], ['owner@alpha.test']]);
    const [warning, limit] = smtp.received.map((m) => m.mail);
    expect(warning!.subject).toBe("[Packyard] packages at 80% of the plan's limit");
    expect(warning!.text).toContain('Used: 4');
    expect(warning!.text).toContain('Limit: 5');
    expect(warning!.text).toContain('http://alpha.packyard.test/admin/statistics');
    expect(limit!.subject).toBe('[Packyard] Plan limit reached: packages');
  });
});
