import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { addSyncedPackage, adminApi, createCustomer } from '../../../test/factories.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import { packageZip } from '../artifacts/test-zips.js';

let t: TestApp;
let api: ReturnType<typeof adminApi>;
let git: GitFixture;

beforeAll(async () => {
  t = await createTestApp({ EDITION: 'pro' });
  api = adminApi(t);
  git = new GitFixture('acme/synced').release('1.0.0').release('1.1.0');
});
afterAll(async () => {
  await t.close();
  git.remove();
});

type Feed = { data: { id: string; type: string; data: Record<string, unknown> }[]; next: string };

/** The events written since `after`, as [type, data]. */
async function since(after: string | null) {
  const feed = (await api(
    'GET',
    `/api/v1/events?limit=500${after ? `&after=${after}` : ''}`,
  )) as Feed;
  return { events: feed.data.map((e) => [e.type, e.data] as const), next: feed.next };
}

async function last(): Promise<string | null> {
  let after: string | null = null;
  for (;;) {
    const page = await since(after);
    if (page.events.length === 0) return after;
    after = page.next;
  }
}

describe('the events each change writes (docs/webhooks-outgoing.md)', () => {
  it('writes customer, token and access events', async () => {
    const start = await last();
    const customer = await createCustomer(t, 'Evented');
    const id = customer.id;
    await api('POST', `/api/v1/customers/${id}/suspend`, { reason: 'late' });
    await api('POST', `/api/v1/customers/${id}/reactivate`);
    const { token } = (await api('POST', `/api/v1/customers/${id}/tokens`, { name: 'ci' })) as {
      token: { id: string };
    };
    await api('DELETE', `/api/v1/customers/${id}/tokens/${token.id}`);
    await api('DELETE', `/api/v1/customers/${id}`);
    const { events } = await since(start);
    expect(events).toEqual([
      ['customer.created', { customer_id: id }],
      ['customer.status_changed', { customer_id: id, from: 'ACTIVE', to: 'SUSPENDED' }],
      ['customer.status_changed', { customer_id: id, from: 'SUSPENDED', to: 'ACTIVE' }],
      ['token.created', { customer_id: id, token_id: token.id }],
      ['token.revoked', { customer_id: id, token_id: token.id }],
      ['customer.deleted', { customer_id: id }],
    ]);
  });

  it('writes package, sync, version and access events', async () => {
    const start = await last();
    await addSyncedPackage(t, 'acme/synced', git.url);
    const customer = await createCustomer(t, 'Granted');
    await api('POST', `/api/v1/customers/${customer.id}/packages`, {
      package: 'acme/synced',
      constraint: '^1.0',
    });
    await api('DELETE', `/api/v1/customers/${customer.id}/packages/acme/synced`);
    await api('POST', '/api/v1/packages/acme/synced/yank/1.0.0');
    await api('POST', '/api/v1/packages/acme/synced/unyank/1.0.0');
    await api('POST', '/api/v1/packages/acme/synced/deprecate/1.1.0');
    await api('DELETE', '/api/v1/packages/acme/synced');
    const { events } = await since(start);
    const ofPackage = events.filter(([type]) => type !== 'customer.created');
    const synced = ofPackage.find(([type]) => type === 'package.synced')![1];
    expect(synced).toMatchObject({ package: 'acme/synced', status: 'ok', versions_removed: [] });
    const added = synced.versions_added as string[];
    expect(added).toEqual(expect.arrayContaining(['1.0.0', '1.1.0']));
    // One version.published per version the sync added (the tags and the default branch).
    expect(ofPackage.map(([type]) => type)).toEqual([
      'package.created',
      ...added.map(() => 'version.published'),
      'package.synced',
      'access.granted',
      'access.revoked',
      'version.yanked',
      'version.unyanked',
      'version.deprecated',
      'package.deleted',
    ]);
    const rest = ofPackage.slice(added.length + 2);
    expect(rest[0]![1]).toEqual({
      customer_id: customer.id,
      package: 'acme/synced',
      constraint: '^1.0',
    });
    expect(rest[1]![1]).toEqual({
      customer_id: customer.id,
      package: 'acme/synced',
      constraint: '^1.0',
    });
    expect(rest[2]![1]).toEqual({ package: 'acme/synced', version: '1.0.0' });
    expect(rest[4]![1]).toEqual({ package: 'acme/synced', version: '1.1.0' });
  });

  it("writes collection access events with the customer's collection grant constraint", async () => {
    const start = await last();
    for (const name of ['acme/kit-a', 'acme/kit-b']) {
      await api('POST', '/api/v1/packages', { name, type: 'artifact' });
    }
    await api('POST', '/api/v1/collections', {
      name: 'Kit',
      slug: 'kit',
      packages: ['acme/kit-a'],
    });
    const customer = await createCustomer(t, 'Kitted');
    const access = (type: string, pkg: string) => [
      type,
      { customer_id: customer.id, package: pkg, constraint: '^2.0' },
    ];
    await api('POST', `/api/v1/customers/${customer.id}/collections`, {
      collection: 'kit',
      constraint: '^2.0',
    });
    await api('PATCH', '/api/v1/collections/kit', { add_packages: ['acme/kit-b'] });
    await api('PATCH', '/api/v1/collections/kit', { remove_packages: ['acme/kit-a'] });
    await api('DELETE', `/api/v1/customers/${customer.id}/collections/kit`);
    const { events } = await since(start);
    expect(events.filter(([type]) => type.startsWith('access.'))).toEqual([
      access('access.granted', 'acme/kit-a'),
      access('access.granted', 'acme/kit-b'),
      access('access.revoked', 'acme/kit-a'),
      access('access.revoked', 'acme/kit-b'),
    ]);
  });

  it('writes vulnerability.detected when an advisory affects held versions', async () => {
    const start = await last();
    const repo = new GitFixture('acme/vulnerable').release('1.0.0').release('2.0.0');
    try {
      await addSyncedPackage(t, 'acme/vulnerable', repo.url);
      const advisory = (await api('POST', '/api/v1/advisories', {
        package: 'acme/vulnerable',
        title: 'Remote code execution',
        affected_versions: '<2.0',
      })) as { advisory_id: string };
      const detected = await waitForEvent(
        start,
        (type, data) => type === 'vulnerability.detected' && data.package === 'acme/vulnerable',
      );
      expect(detected).toEqual({
        advisory_id: advisory.advisory_id,
        package: 'acme/vulnerable',
        affected_versions: ['1.0.0'],
      });
    } finally {
      repo.remove();
    }
  });

  it('writes a failed sync and an upload', async () => {
    const start = await last();
    await api('POST', '/api/v1/packages', {
      name: 'acme/broken',
      repository_url: `${git.url}-missing`,
      type: 'git',
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/packages',
      headers: t.admin,
      payload: { name: 'acme/zipped', type: 'artifact' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/v1/packages/acme/zipped/artifacts?version=2.0.0',
      headers: { ...t.admin, 'content-type': 'application/zip' },
      payload: packageZip({ name: 'acme/zipped' }),
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const failed = await waitForEvent(start, (type, data) => {
      return type === 'package.synced' && data.package === 'acme/broken';
    });
    expect(failed).toMatchObject({ status: 'failed', versions_added: [], versions_removed: [] });
    expect(typeof failed.error).toBe('string');
    const { events } = await since(start);
    expect(events).toContainEqual([
      'version.published',
      { package: 'acme/zipped', version: '2.0.0' },
    ]);
  });
});

async function waitForEvent(
  after: string | null,
  match: (type: string, data: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const hit = (await since(after)).events.find(([type, data]) => match(type, data));
    if (hit) return hit[1];
    if (Date.now() > deadline) throw new Error('event not written');
    await new Promise((r) => setTimeout(r, 50));
  }
}
