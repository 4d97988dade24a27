import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { ConfigError, loadConfig } from '../../config/index.js';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('GET /api/v1/license', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      EDITION: 'pro',
      LICENSEE: 'Acme Corp',
      LICENSE_EXPIRES_AT: '2027-01-31',
      BANDWIDTH_LIMIT_BYTES: '1000000',
      WORKER: 'off',
    });
  });
  afterAll(async () => t.close());

  it('answers the edition, licensee, expiry, features and limits', async () => {
    const res = await t.app.inject({ url: '/api/v1/license', headers: t.admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      edition: 'pro',
      licensee: 'Acme Corp',
      expires_at: '2027-01-31T00:00:00.000Z',
      features: [
        'graphql',
        'vulnerabilities',
        'security_advisories',
        'proxy',
        'audit_log',
        'outgoing_webhooks',
      ],
      limits: { graphql_complexity: 500, bandwidth_bytes: 1000000, storage_bytes: null },
    });
  });

  it('needs an admin token; a viewer may read it', async () => {
    expect((await t.app.inject({ url: '/api/v1/license' })).statusCode).toBe(401);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/team/tokens',
      headers: t.admin,
      payload: { name: 'viewer', level: 'viewer' },
    });
    expect(created.statusCode).toBe(201);
    const res = await t.app.inject({
      url: '/api/v1/license',
      headers: bearer(created.json().plain_token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().edition).toBe('pro');
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    expect(doc.paths['/api/v1/license']).toBeDefined();
  });
});

describe('license defaults', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ EDITION: 'community', WORKER: 'off' });
  });
  afterAll(async () => t.close());

  it('is unlicensed, never expires, and has no gated features on community', async () => {
    const res = await t.app.inject({ url: '/api/v1/license', headers: t.admin });
    expect(res.json()).toEqual({
      edition: 'community',
      licensee: 'Unlicensed',
      expires_at: null,
      features: [],
      limits: { graphql_complexity: null, bandwidth_bytes: null, storage_bytes: null },
    });
  });
});

describe('license settings', () => {
  it('accepts ISO dates and timestamps', () => {
    expect(loadConfig({ LICENSE_EXPIRES_AT: '2027-06-30T12:00:00Z' }).licenseExpiresAt).toBe(
      '2027-06-30T12:00:00.000Z',
    );
    expect(loadConfig({}).licenseExpiresAt).toBeNull();
    expect(loadConfig({ LICENSEE: '  ' }).licensee).toBe('Unlicensed');
  });

  it('refuses anything else, naming the setting', () => {
    for (const bad of ['tomorrow', '31/01/2027', '2027-13-45', '2027-02-31', '2027-01-31 junk']) {
      expect(() => loadConfig({ LICENSE_EXPIRES_AT: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ LICENSE_EXPIRES_AT: bad }), bad).toThrow(/LICENSE_EXPIRES_AT/);
    }
  });
});
