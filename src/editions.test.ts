import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, cloudTenant, createTestApp } from '../test/helpers.js';
import type { TestApp } from '../test/helpers.js';
import { adminApi, createCustomer } from '../test/factories.js';
import { EDITIONS } from './config/index.js';
import type { Edition } from './config/index.js';
import { EDITION_MATRIX, FEATURES, assertFeature, hasFeature } from './editions.js';
import type { Feature } from './editions.js';

describe('the edition matrix (docs/operations.md)', () => {
  it('gives each edition exactly its features', () => {
    const pro = [
      'graphql',
      'vulnerabilities',
      'security_advisories',
      'proxy',
      'audit_log',
      'outgoing_webhooks',
    ];
    const expected: Record<Edition, string[]> = {
      community: [],
      pro,
      enterprise: pro,
      cloud: [...pro, 'tenants'],
    };
    for (const edition of EDITIONS) {
      const has = FEATURES.filter((f) => hasFeature(edition, f));
      expect(has.sort(), edition).toEqual([...expected[edition]].sort());
    }
  });

  it('sets the GraphQL complexity limit per edition', () => {
    expect(EDITION_MATRIX.community.graphqlComplexityLimit).toBeNull();
    expect(EDITION_MATRIX.pro.graphqlComplexityLimit).toBe(500);
    expect(EDITION_MATRIX.enterprise.graphqlComplexityLimit).toBeNull();
    expect(EDITION_MATRIX.cloud.graphqlComplexityLimit).toBe(1000);
  });

  it('refuses a missing feature with FEATURE_NOT_AVAILABLE', () => {
    expect(() => assertFeature('community', 'audit_log')).toThrow(
      expect.objectContaining({ code: 'FEATURE_NOT_AVAILABLE', status: 403 }),
    );
    expect(() => assertFeature('enterprise', 'tenants')).toThrow(/Cloud edition/);
    expect(() => assertFeature('pro', 'graphql')).not.toThrow();
  });
});

describe.each(EDITIONS)('gated Composer routes on the %s edition', (edition) => {
  let t: TestApp;
  let auth: Record<string, string>;
  const gated = edition !== 'community';

  beforeAll(async () => {
    t = await createTestApp({ EDITION: edition, WORKER: 'off' });
    // In Cloud, the registry is a tenant's: on its host, with its own owner token.
    const tenant = edition === 'cloud' ? await cloudTenant(t, 'acme') : null;
    if (tenant) t.admin = tenant.admin;
    const c = await createCustomer(t, `Ed ${edition}`);
    const token = await adminApi(t)('POST', `/api/v1/customers/${c.id}/tokens`, { name: 't' });
    auth = {
      authorization: basicAuth(token.plain_token),
      ...(tenant ? { host: tenant.host } : {}),
    };
  });
  afterAll(async () => t.close());

  it(`${gated ? 'advertises' : 'does not advertise'} security advisories in packages.json`, async () => {
    const res = await t.app.inject({ url: '/packages.json', headers: auth });
    expect(res.statusCode).toBe(200);
    if (gated) {
      expect(res.json()['security-advisories']).toEqual({
        metadata: true,
        // A tenant's absolute URLs use its own host (docs/cloud.md).
        'api-url': `http://${edition === 'cloud' ? 'acme.' : ''}packyard.test/api/security-advisories/`,
      });
    } else {
      expect(res.json()).not.toHaveProperty('security-advisories');
    }
  });

  it(`${gated ? 'answers' : 'refuses'} POST /api/security-advisories/`, async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/security-advisories/',
      headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'packages%5B0%5D=acme%2Flib',
    });
    if (gated) {
      expect(res.statusCode).toBe(200);
      // A name with nothing to report is left out (docs/advisories.md).
      expect(res.json()).toEqual({ advisories: {} });
    } else {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'FEATURE_NOT_AVAILABLE' });
    }
  });
});

describe.each(EDITIONS)('edition-limited groups on the %s edition', (edition) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ EDITION: edition, WORKER: 'off' });
  });
  afterAll(async () => t.close());

  const groups: [string, string, Feature][] = [
    ['GET', '/api/v1/vulnerabilities', 'vulnerabilities'],
    ['POST', '/api/v1/vulnerabilities/scan', 'vulnerabilities'],
    ['GET', '/api/v1/vulnerabilities/some-id', 'vulnerabilities'],
    ['GET', '/api/v1/advisories', 'security_advisories'],
    ['POST', '/api/v1/advisories', 'security_advisories'],
    ['GET', '/api/v1/proxy/status', 'proxy'],
    ['POST', '/api/v1/proxy/freeze/acme/lib', 'proxy'],
    ['GET', '/api/v1/tenants', 'tenants'],
    ['POST', '/api/v1/tenants/t1/change-plan', 'tenants'],
  ];
  it.each(groups)(
    '%s %s answers FEATURE_NOT_AVAILABLE unless the edition has it',
    async (method, url, feature) => {
      const res = await t.app.inject({ method: method as 'GET' | 'POST', url, headers: t.admin });
      if (hasFeature(edition, feature)) {
        expect(res.json().code).not.toBe('FEATURE_NOT_AVAILABLE');
      } else {
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json()).toMatchObject({
          error: 'feature_not_available',
          code: 'FEATURE_NOT_AVAILABLE',
        });
      }
    },
  );
});
