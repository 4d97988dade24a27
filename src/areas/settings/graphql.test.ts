import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi } from '../../../test/factories.js';
import { createTestApp, graphql, graphqlBody } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';

const FIELDS = /* GraphQL */ `
  fragment All on Settings {
    notificationEmails
    webhookSecrets {
      github {
        set
      }
      stripe {
        set
      }
    }
    portal {
      title
      accentColor
    }
  }
`;
const SETTINGS = `query { settings { ...All } } ${FIELDS}`;
const UPDATE = `mutation ($input: UpdateSettingsInput!) {
  updateSettings(input: $input) { ...All }
} ${FIELDS}`;

const rest = (t: TestApp, headers: Record<string, string> = t.admin) =>
  t.app.inject({ method: 'GET', url: '/api/v1/settings', headers });

describe('settings over GraphQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      ENCRYPTION_KEY: 'an-encryption-key-of-at-least-32-characters',
      WORKER: 'off',
    });
  });
  afterAll(async () => t.close());

  it('reads and changes what REST reads and changes', async () => {
    expect(await graphqlBody(t, SETTINGS)).toEqual({
      data: {
        settings: {
          notificationEmails: [],
          webhookSecrets: { github: { set: false }, stripe: { set: false } },
          portal: { title: null, accentColor: null },
        },
      },
    });

    const saved = await graphqlBody(t, UPDATE, {
      input: {
        notificationEmails: ['ops@example.com', 'dev@example.com'],
        webhookSecrets: { github: 'gh-secret' },
        portal: { title: 'Acme packages', accentColor: '#AA3300' },
      },
    });
    expect(saved.errors).toBeUndefined();
    expect(saved.data?.updateSettings).toEqual({
      notificationEmails: ['ops@example.com', 'dev@example.com'],
      webhookSecrets: { github: { set: true }, stripe: { set: false } },
      portal: { title: 'Acme packages', accentColor: '#aa3300' },
    });
    expect(JSON.stringify(saved)).not.toContain('gh-secret');
    expect((await rest(t)).json()).toMatchObject({
      notification_emails: ['ops@example.com', 'dev@example.com'],
      webhook_secrets: { github: { set: true } },
      portal: { title: 'Acme packages', accent_color: '#aa3300' },
    });

    // Left out stays; an explicit null clears, as in a PATCH.
    const cleared = await graphqlBody(t, UPDATE, {
      input: { webhookSecrets: { github: null }, portal: { title: null } },
    });
    expect(cleared.data?.updateSettings).toEqual({
      notificationEmails: ['ops@example.com', 'dev@example.com'],
      webhookSecrets: { github: { set: false }, stripe: { set: false } },
      portal: { title: null, accentColor: '#aa3300' },
    });
    const portal = await t.app.inject({ url: '/api/v1/settings', headers: t.admin });
    expect(portal.json().portal).toEqual({ title: null, accent_color: '#aa3300' });
  });

  it("refuses what REST refuses, with REST's VALIDATION_ERROR details", async () => {
    const before = (await rest(t)).json();
    for (const input of [
      { notificationEmails: ['ops@example.com', 'not an address'] },
      { notificationEmails: Array.from({ length: 21 }, (_, i) => `u${i}@example.com`) },
      { portal: { accentColor: 'red' } },
      { portal: { title: '' } },
      { webhookSecrets: { github: '' } },
    ]) {
      const res = await graphqlBody(t, UPDATE, { input });
      expect(res.data, JSON.stringify(input)).toBeNull();
      expect(res.errors?.[0]?.extensions.code, JSON.stringify(input)).toBe('VALIDATION_ERROR');
    }
    const bad = await graphqlBody(t, UPDATE, {
      input: { notificationEmails: ['ops@example.com', 'not an address'] },
    });
    const viaRest = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/settings',
      headers: t.admin,
      payload: { notification_emails: ['ops@example.com', 'not an address'] },
    });
    expect(viaRest.statusCode).toBe(400);
    expect(bad.errors?.[0]?.extensions.details?.map((d) => d.field)).toEqual([
      'notification_emails.1',
    ]);
    expect(bad.errors?.[0]?.extensions.details?.map((d) => d.field)).toEqual(
      viaRest.json().details.map((d: { field: string }) => d.field),
    );
    expect((await rest(t)).json()).toEqual(before);
  });

  it('lets a viewer read and refuses its change with FORBIDDEN', async () => {
    const viewer = await adminApi(t)('POST', '/api/v1/team/tokens', { name: 'v', level: 'viewer' });
    const asViewer = { authorization: `Bearer ${viewer.plain_token}` };
    const read = await graphqlBody(t, SETTINGS, {}, asViewer);
    expect(read.errors).toBeUndefined();
    const write = await graphqlBody(
      t,
      UPDATE,
      { input: { notificationEmails: ['x@example.com'] } },
      asViewer,
    );
    expect(write.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
    expect((await rest(t)).json().notification_emails).not.toContain('x@example.com');
  });
});

describe('settings over GraphQL in Community', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ EDITION: 'community', WORKER: 'off' });
  });
  afterAll(async () => t.close());

  it('is not available (GraphQL is Pro and above); REST settings are', async () => {
    const res = await graphql(t, SETTINGS);
    expect(res.errors?.[0]?.extensions.code).toBe('FEATURE_NOT_AVAILABLE');
    expect((await rest(t)).statusCode).toBe(200);
  });
});
