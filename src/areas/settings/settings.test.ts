import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudTenant, createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';

const ENV_GITHUB_SECRET = 'server-wide-github-secret';
const hmac = (secret: string, body: string) =>
  `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`;
const NONE_SET = {
  webhook_secrets: {
    github: { set: false },
    gitlab: { set: false },
    bitbucket: { set: false },
    stripe: { set: false },
  },
  notification_emails: [],
  portal: { title: null, accent_color: null },
};

/** A GitHub `ping` delivery signed with `secret`, on `host`. */
const githubPing = (t: TestApp, secret: string, host = 'localhost') => {
  const body = JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1 });
  return t.app.inject({
    method: 'POST',
    url: '/api/webhooks/github',
    payload: body,
    headers: {
      host,
      'content-type': 'application/json',
      'x-github-event': 'ping',
      'x-github-delivery': crypto.randomUUID(),
      'x-hub-signature-256': hmac(secret, body),
    },
  });
};

const gitlabPush = (t: TestApp, token: string, host: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/webhooks/gitlab',
    payload: { object_kind: 'push', project: { git_http_url: 'https://gitlab.test/a/b.git' } },
    headers: { host, 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': token },
  });

const settings = (
  t: TestApp,
  method: 'GET' | 'PATCH',
  headers: Record<string, string>,
  payload?: object,
) => t.app.inject({ method, url: '/api/v1/settings', headers, payload });

describe('tenant settings: webhook secrets (single registry)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      GITHUB_WEBHOOK_SECRET: ENV_GITHUB_SECRET,
      ENCRYPTION_KEY: 'an-encryption-key-of-at-least-32-characters',
      WORKER: 'off',
    });
  });
  afterAll(async () => t.close());

  it('stores secrets sealed, shows only whether each is set, and lets a viewer read', async () => {
    expect((await settings(t, 'GET', t.admin)).json()).toEqual(NONE_SET);
    const set = await settings(t, 'PATCH', t.admin, {
      webhook_secrets: { github: 'tenant-github-secret', stripe: 'whsec_tenant' },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({
      webhook_secrets: {
        github: { set: true },
        gitlab: { set: false },
        bitbucket: { set: false },
        stripe: { set: true },
      },
      notification_emails: [],
      portal: { title: null, accent_color: null },
    });
    expect(set.body).not.toContain('tenant-github-secret');
    const rows = await t.db.selectFrom('settings').select(['key', 'value']).execute();
    const stored = rows.filter((r) => r.key.startsWith('webhook_secret.'));
    expect(stored.map((r) => r.key).sort()).toEqual([
      'webhook_secret.github',
      'webhook_secret.stripe',
    ]);
    for (const r of stored) {
      expect(r.value).not.toContain('tenant-github-secret');
      expect(r.value).not.toContain('whsec_tenant');
    }
    // Merge: setting one keeps the others; null clears one.
    await settings(t, 'PATCH', t.admin, { webhook_secrets: { gitlab: 'gl-token' } });
    const cleared = await settings(t, 'PATCH', t.admin, { webhook_secrets: { stripe: null } });
    expect(cleared.json().webhook_secrets).toEqual({
      github: { set: true },
      gitlab: { set: true },
      bitbucket: { set: false },
      stripe: { set: false },
    });

    const viewer = await t.app.inject({
      method: 'POST',
      url: '/api/v1/team/tokens',
      headers: t.admin,
      payload: { name: 'v', level: 'viewer' },
    });
    const asViewer = { authorization: `Bearer ${viewer.json().plain_token}` };
    expect((await settings(t, 'GET', asViewer)).statusCode).toBe(200);
    const refused = await settings(t, 'PATCH', asViewer, { webhook_secrets: { github: 'x' } });
    expect(refused.statusCode).toBe(403);

    const audit = await t.app.inject({
      url: '/api/v1/audit-log?action=settings.update',
      headers: t.admin,
    });
    expect(audit.body).not.toContain('tenant-github-secret');
  });

  it('checks inbound webhooks with the tenant secret, and the environment one once cleared', async () => {
    await settings(t, 'PATCH', t.admin, { webhook_secrets: { github: 'tenant-github-secret' } });
    expect((await githubPing(t, 'tenant-github-secret')).statusCode).toBe(200);
    expect((await githubPing(t, ENV_GITHUB_SECRET)).statusCode).toBe(401);
    await settings(t, 'PATCH', t.admin, { webhook_secrets: { github: null } });
    expect((await githubPing(t, ENV_GITHUB_SECRET)).statusCode).toBe(200);
    expect((await githubPing(t, 'tenant-github-secret')).statusCode).toBe(401);
  });

  it('refuses bad input with VALIDATION_ERROR', async () => {
    for (const body of [
      { webhook_secrets: { github: '' } },
      { webhook_secrets: { github: 42 } },
      { webhook_secrets: { hostapp: 'x' } },
      { webhook_secrets: 'x' },
      { other: true },
    ]) {
      const res = await settings(t, 'PATCH', t.admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
  });
});

describe('tenant settings in Cloud', () => {
  let t: TestApp;
  beforeAll(async () => {
    // No ENCRYPTION_KEY: a generated key kept in the database seals the secrets.
    t = await createTestApp({
      EDITION: 'cloud',
      GITHUB_WEBHOOK_SECRET: ENV_GITHUB_SECRET,
      WORKER: 'off',
    });
  });
  afterAll(async () => t.close());

  it("answers a tenant's webhook only with its own secret, never another tenant's or the server's", async () => {
    const a = await cloudTenant(t, 'alpha');
    const b = await cloudTenant(t, 'bravo');
    const off = await githubPing(t, ENV_GITHUB_SECRET, a.host);
    expect(off.statusCode).toBe(403);
    expect(off.json()).toMatchObject({ code: 'FEATURE_NOT_AVAILABLE' });

    await settings(t, 'PATCH', a.admin, { webhook_secrets: { github: 'alpha-secret' } });
    await settings(t, 'PATCH', b.admin, {
      webhook_secrets: { github: 'bravo-secret', gitlab: 'bravo-gl' },
    });
    expect((await githubPing(t, 'alpha-secret', a.host)).statusCode).toBe(200);
    expect((await githubPing(t, 'bravo-secret', a.host)).statusCode).toBe(401);
    expect((await githubPing(t, ENV_GITHUB_SECRET, a.host)).statusCode).toBe(401);
    expect((await githubPing(t, 'bravo-secret', b.host)).statusCode).toBe(200);
    expect((await gitlabPush(t, 'bravo-gl', a.host)).statusCode).toBe(403);
    expect((await gitlabPush(t, 'alpha-secret', b.host)).statusCode).toBe(401);

    // A sealed secret copied to another tenant's row does not open there.
    const sealed = await t.db
      .selectFrom('settings')
      .select('value')
      .where('tenant_id', '=', b.id)
      .where('key', '=', 'webhook_secret.github')
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable('settings')
      .set({ value: sealed.value })
      .where('tenant_id', '=', a.id)
      .where('key', '=', 'webhook_secret.github')
      .execute();
    const copied = await githubPing(t, 'bravo-secret', a.host);
    expect(copied.statusCode).toBeGreaterThanOrEqual(400);
    expect(copied.statusCode).toBeLessThan(500);
    expect((await settings(t, 'GET', a.admin)).json().webhook_secrets.github).toEqual({
      set: true,
    });
  });
});
