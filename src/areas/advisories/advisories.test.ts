import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, graphql, waitFor } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { createCustomer } from '../../../test/factories.js';
import type { DomainEvent } from '../../infra/events.js';
import { uploadVersion } from './advisories.test-helpers.js';

let t: TestApp;
const events: DomainEvent[] = [];

async function call(method: string, url: string, payload?: unknown, headers = t.admin) {
  return t.app.inject({
    method: method as 'GET',
    url: `/api/v1${url}`,
    headers,
    payload: payload as object,
  });
}
async function api(method: string, url: string, payload?: unknown) {
  const res = await call(method, url, payload);
  if (res.statusCode >= 400) throw new Error(`${method} ${url} -> ${res.statusCode} ${res.body}`);
  return res.statusCode === 204 ? null : res.json();
}

const body = {
  package: 'acme/widget',
  title: 'Remote code execution in the widget',
  severity: 'high',
  affected_versions: '>=1.0.0,<1.2.0',
  description: 'Upgrade to 1.2.0.',
  cve: 'CVE-2026-12345',
  link: 'https://acme.test/sa/1',
};

beforeAll(async () => {
  t = await createTestApp({ EDITION: 'pro' });
  t.runtime.services.deps.events.subscribe((e) => events.push(e));
  await api('POST', '/packages', { name: 'acme/widget', type: 'artifact' });
  for (const v of ['1.0.0', '1.1.0', '1.2.0']) await uploadVersion(t, 'acme/widget', v);
});

afterAll(async () => {
  await t.close();
});

describe('vendor advisories', () => {
  let id: string;

  it('creates one with a PKYD id, source vendor, and matches the held versions', async () => {
    const res = await call('POST', '/advisories', body);
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    id = created.id;
    expect(created).toEqual({
      ...body,
      id: expect.any(String),
      advisory_id: expect.stringMatching(/^PKYD-\d{4}-0001$/),
      reported_at: expect.stringMatching(/Z$/),
      source: 'vendor',
    });
    expect(await api('GET', `/advisories/${id}`)).toEqual(created);
    expect((await api('GET', '/advisories')).data).toEqual([created]);

    const list = await api('GET', '/vulnerabilities');
    expect(list.pagination.total).toBe(1);
    expect(list.data[0]).toMatchObject({
      id,
      advisory_id: created.advisory_id,
      package: 'acme/widget',
      severity: 'high',
      cve: 'CVE-2026-12345',
      affected_versions: '>=1.0.0,<1.2.0',
      affected_registry_versions: ['1.0.0', '1.1.0'],
      patched_versions: ['1.2.0'],
      sources: [{ name: 'vendor', remote_id: created.advisory_id }],
      affected_customer_count: 0,
    });
    const detected = events.filter((e) => e.type === 'vulnerability.detected');
    expect(detected).toEqual([
      expect.objectContaining({ advisoryId: created.advisory_id, versions: ['1.0.0', '1.1.0'] }),
    ]);
  });

  it('names the customers that downloaded an affected version', async () => {
    const customer = await createCustomer(t, 'Downloader');
    await api('POST', `/customers/${customer.id}/packages`, {
      package: 'acme/widget',
      constraint: '*',
    });
    const token = (
      await api('POST', `/customers/${customer.id}/tokens`, { name: 'ci', scope: 'download' })
    ).plain_token as string;
    const auth = { authorization: `Bearer ${token}` };
    for (const v of ['1.1.0.0', '1.2.0.0']) {
      const res = await t.app.inject({ url: `/dist/acme/widget/${v}.zip`, headers: auth });
      expect(res.statusCode).toBe(200);
    }
    const detail = await api('GET', `/vulnerabilities/${id}`);
    expect(detail.affected_customer_count).toBe(1);
    expect(detail.affected_customers).toEqual([
      { customer_id: customer.id, name: 'Downloader', versions: ['1.1.0'] },
    ]);
  });

  it('matches a version uploaded later', async () => {
    await uploadVersion(t, 'acme/widget', '1.1.5');
    const v = await waitFor(
      () => api('GET', `/vulnerabilities/${id}`),
      (r) => r.affected_registry_versions.length === 3,
    );
    expect(v.affected_registry_versions).toEqual(['1.0.0', '1.1.0', '1.1.5']);
  });

  it('refuses constraints Composer cannot parse, unknown packages and unknown fields', async () => {
    for (const [payload, field] of [
      [{ ...body, affected_versions: '>=1.0 <<2' }, 'affected_versions'],
      [{ ...body, package: 'acme/unknown' }, 'package'],
      [{ ...body, severity: 'severe' }, 'severity'],
      [{ ...body, extra: 1 }, 'extra'],
    ] as const) {
      const res = await call('POST', '/advisories', payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(JSON.stringify(res.json().details ?? res.json().message)).toContain(field);
    }
    const patch = await call('PATCH', `/advisories/${id}`, {
      affected_versions: 'not a constraint',
    });
    expect(patch.statusCode).toBe(400);
  });

  it('updates and re-matches; deleting removes the vulnerability', async () => {
    const res = await call('PATCH', `/advisories/${id}`, {
      affected_versions: '<1.1.0',
      severity: null,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ affected_versions: '<1.1.0', severity: null });
    const v = await api('GET', `/vulnerabilities/${id}`);
    expect(v.affected_registry_versions).toEqual(['1.0.0']);
    expect(v.patched_versions).toEqual(['1.1.0', '1.1.5', '1.2.0']);
    expect((await call('DELETE', `/advisories/${id}`)).statusCode).toBe(204);
    expect((await call('GET', `/vulnerabilities/${id}`)).statusCode).toBe(404);
    expect((await api('GET', '/vulnerabilities')).data).toEqual([]);
  });

  it('lets viewers read and not write', async () => {
    const viewer = await api('POST', '/team/tokens', { name: 'v', level: 'viewer' });
    const headers = { authorization: `Bearer ${viewer.plain_token ?? viewer.token}` };
    expect((await call('GET', '/advisories', undefined, headers)).statusCode).toBe(200);
    expect((await call('POST', '/advisories', body, headers)).statusCode).toBe(403);
    expect((await call('POST', '/vulnerabilities/scan', undefined, headers)).statusCode).toBe(403);
  });
});

describe('GraphQL', () => {
  it('creates, lists and deletes advisories; vulnerabilities answers service.md fields', async () => {
    const created = await graphql(
      t,
      `
        mutation ($input: CreateAdvisoryInput!) {
          createAdvisory(input: $input) {
            id
            advisoryId
            source
            affectedVersions
            severity
          }
        }
      `,
      {
        input: { package: 'acme/widget', title: 'XSS', affectedVersions: '<1.1', severity: 'low' },
      },
    );
    expect(created.errors).toBeUndefined();
    const advisory = created.data!.createAdvisory as { id: string; advisoryId: string };
    expect(advisory).toMatchObject({ source: 'vendor', affectedVersions: '<1.1', severity: 'low' });
    const list = await graphql(
      t,
      `
        {
          vulnerabilities(packageName: "acme/widget") {
            id
            advisory
            severity
            affectedVersions
            patchedVersions
            description
          }
        }
      `,
    );
    expect(list.data!.vulnerabilities).toEqual([
      {
        id: advisory.id,
        advisory: advisory.advisoryId,
        severity: 'low',
        affectedVersions: '<1.1',
        patchedVersions: ['1.1.0', '1.1.5', '1.2.0'],
        description: null,
      },
    ]);
    const bad = await graphql(
      t,
      `mutation { updateAdvisory(id: "${advisory.id}", input: { affectedVersions: "~>1" }) { id } }`,
    );
    expect(bad.errors?.[0]?.extensions.code).toBe('VALIDATION_ERROR');
    const gone = await graphql(t, `mutation { deleteAdvisory(id: "${advisory.id}") }`);
    expect(gone.data).toEqual({ deleteAdvisory: true });
  });
});

describe('the vulnerabilities list', () => {
  it('filters by package and severity, and refuses unknown filters', async () => {
    await api('POST', '/packages', { name: 'acme/other', type: 'artifact' });
    await uploadVersion(t, 'acme/other', '0.9.0');
    const made = [];
    for (const [pkg, severity] of [
      ['acme/widget', 'critical'],
      ['acme/other', 'low'],
    ] as const) {
      made.push(
        await api('POST', '/advisories', {
          package: pkg,
          title: `${severity} flaw`,
          severity,
          affected_versions: '*',
        }),
      );
    }
    const byPackage = await api('GET', '/vulnerabilities?package=acme/other');
    expect(byPackage.data.map((v: { package: string }) => v.package)).toEqual(['acme/other']);
    const bySeverity = await api('GET', '/vulnerabilities?severity=critical');
    expect(bySeverity.data.map((v: { title: string }) => v.title)).toEqual(['critical flaw']);
    expect((await call('GET', '/vulnerabilities?severity=severe')).statusCode).toBe(400);
    expect((await call('GET', '/vulnerabilities?colour=red')).statusCode).toBe(400);
    expect((await call('GET', '/vulnerabilities/nope')).statusCode).toBe(404);
    for (const a of made) await api('DELETE', `/advisories/${a.id as string}`);
  });
});

describe('deleting a package', () => {
  it('takes its vendor advisories and their vulnerabilities with it', async () => {
    await api('POST', '/packages', { name: 'acme/doomed', type: 'artifact' });
    await uploadVersion(t, 'acme/doomed', '1.0.0');
    const created = await api('POST', '/advisories', {
      package: 'acme/doomed',
      title: 'Doomed',
      affected_versions: '<2.0',
    });
    expect((await api('GET', `/vulnerabilities/${created.id}`)).affected_registry_versions).toEqual(
      ['1.0.0'],
    );
    expect((await call('DELETE', '/packages/acme/doomed')).statusCode).toBe(204);
    expect((await call('GET', `/advisories/${created.id}`)).statusCode).toBe(404);
    expect((await call('GET', `/vulnerabilities/${created.id}`)).statusCode).toBe(404);
    const listed = ((await api('GET', '/advisories')).data as { package: string }[]).filter(
      (a) => a.package === 'acme/doomed',
    );
    expect(listed).toEqual([]);
  });
});
