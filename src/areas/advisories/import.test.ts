import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unguarded } from '../auth/authorize.js';
import { createTestApp, waitFor } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import type { DomainEvent } from '../../infra/events.js';
import { uploadVersion } from './advisories.test-helpers.js';
import type { AdvisorySource, ImportedAdvisory, SourceResult } from './sources/types.js';

let t: TestApp;
const events: DomainEvent[] = [];

const record = (over: Partial<ImportedAdvisory>): ImportedAdvisory => ({
  source: 'friendsofphp',
  remoteId: 'acme/lib/CVE-2026-0001.yaml',
  packageName: 'acme/lib',
  title: 'Flaw one',
  link: 'https://fop.test/1',
  cve: 'CVE-2026-0001',
  aliases: [],
  affectedVersions: '>=1.0,<1.5',
  reportedAt: new Date('2026-01-01T00:00:00Z'),
  severity: null,
  description: null,
  ...over,
});

/** A source whose answer the test sets; counts how often it was read. */
function source(name: AdvisorySource['name']) {
  const s = {
    name,
    reads: 0,
    answer: { source: name, records: [], problems: [] } as SourceResult | Error,
    async read(_signal: AbortSignal, previous: string | null): Promise<SourceResult> {
      s.reads += 1;
      if (s.answer instanceof Error) throw s.answer;
      if (s.answer.fingerprint && s.answer.fingerprint === previous) {
        return { source: name, records: [], problems: [], fingerprint: previous, unchanged: true };
      }
      return s.answer;
    },
  };
  return s;
}

const fop = source('friendsofphp');
const osv = source('osv');
const github = source('github');

async function scan() {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/vulnerabilities/scan',
    headers: t.admin,
  });
  expect(res.statusCode, res.body).toBe(202);
  const task = await waitFor(
    () => t.app.inject({ url: `/api/v1/tasks/${res.json().id}`, headers: t.admin }),
    (r) => ['done', 'failed'].includes(r.json().status),
  );
  expect(task.json()).toMatchObject({ type: 'advisories.import', status: 'done' });
  return task.json().result;
}

const vulnerabilities = async () =>
  (await t.app.inject({ url: '/api/v1/vulnerabilities?per_page=100', headers: t.admin })).json()
    .data as Record<string, unknown>[];

beforeAll(async () => {
  t = await createTestApp({ EDITION: 'pro' });
  t.runtime.services.deps.events.subscribe((e) => events.push(e));
  unguarded(t.runtime.services.advisories, 'test sources').useSources(() => [fop, osv, github]);
  await t.app.inject({
    method: 'POST',
    url: '/api/v1/packages',
    headers: t.admin,
    payload: { name: 'acme/lib', type: 'artifact' },
  });
  for (const v of ['1.0.0', '1.4.0', '1.5.0']) await uploadVersion(t, 'acme/lib', v);
});

afterAll(async () => t.close());

describe('advisories.import', () => {
  it('merges records about the same vulnerability from several sources into one advisory', async () => {
    fop.answer = { source: 'friendsofphp', records: [record({})], problems: [], fingerprint: 'c1' };
    osv.answer = {
      source: 'osv',
      records: [
        record({
          source: 'osv',
          remoteId: 'GHSA-1111-2222-3333',
          cve: null,
          aliases: ['CVE-2026-0001'],
          severity: 'high',
          affectedVersions: '>=1.0,<1.4.1',
          reportedAt: new Date('2025-12-31T00:00:00Z'),
        }),
      ],
      problems: [],
    };
    github.answer = {
      source: 'github',
      records: [
        record({
          source: 'github',
          remoteId: 'GHSA-1111-2222-3333',
          cve: 'CVE-2026-0001',
          description: 'From GitHub',
        }),
      ],
      problems: [],
    };
    const result = await scan();
    expect(result).toMatchObject({ advisories_added: 1, new_matches: 2 });
    const [v, ...rest] = await vulnerabilities();
    expect(rest).toEqual([]);
    expect(v).toMatchObject({
      package: 'acme/lib',
      cve: 'CVE-2026-0001',
      severity: 'high',
      description: 'From GitHub',
      affected_registry_versions: ['1.0.0', '1.4.0'],
      patched_versions: ['1.5.0'],
      reported_at: '2025-12-31T00:00:00.000Z',
    });
    expect((v!.sources as { name: string }[]).map((s) => s.name).sort()).toEqual([
      'friendsofphp',
      'github',
      'osv',
    ]);
    expect(events.filter((e) => e.type === 'vulnerability.detected')).toHaveLength(1);
  });

  it('names malformed records and failing sources, imports the rest, loses nothing', async () => {
    fop.answer = {
      source: 'friendsofphp',
      records: [
        record({}),
        record({
          remoteId: 'acme/lib/bad.yaml',
          cve: 'CVE-2026-0002',
          affectedVersions: '>=1.0 <<2',
        }),
        record({
          remoteId: 'acme/lib/CVE-2026-0003.yaml',
          cve: 'CVE-2026-0003',
          affectedVersions: '<1.1',
        }),
      ],
      problems: [{ record: 'acme/lib/broken.yaml', message: 'broken YAML' }],
      fingerprint: 'c2',
    };
    osv.answer = new Error('connect ECONNREFUSED');
    github.answer = {
      source: 'github',
      records: [],
      problems: [],
      failed: 'GitHub answered 502',
    };
    const result = await scan();
    const bySource = Object.fromEntries(
      (result.sources as { source: string }[]).map((s) => [s.source, s]),
    );
    expect(bySource.friendsofphp).toMatchObject({
      status: 'imported',
      added: 1,
      unchanged: 1,
      problems: [
        { record: 'acme/lib/broken.yaml', message: 'broken YAML' },
        {
          record: 'acme/lib/bad.yaml',
          message: expect.stringContaining('not a Composer constraint'),
        },
      ],
    });
    expect(bySource.osv).toMatchObject({ status: 'failed', error: 'connect ECONNREFUSED' });
    expect(bySource.github).toMatchObject({ status: 'failed', error: 'GitHub answered 502' });
    const list = await vulnerabilities();
    expect(list.map((v) => v.cve).sort()).toEqual(['CVE-2026-0001', 'CVE-2026-0003']);
    // The merged advisory keeps what the failing sources gave before.
    expect(list.find((v) => v.cve === 'CVE-2026-0001')).toMatchObject({ severity: 'high' });
  });

  it('re-imports nothing that did not change', async () => {
    osv.answer = { source: 'osv', records: [], problems: [] };
    github.answer = { source: 'github', records: [], problems: [] };
    const before = await t.db.selectFrom('advisories').select(['id', 'updated_at']).execute();
    const result = await scan();
    expect(result.sources[0]).toMatchObject({ source: 'friendsofphp', status: 'unchanged' });
    expect(result).toMatchObject({ advisories_added: 0, advisories_updated: 0, new_matches: 0 });
    const after = await t.db.selectFrom('advisories').select(['id', 'updated_at']).execute();
    expect(after).toEqual(before);
  });

  it('updates an advisory whose record changed, and only that one', async () => {
    fop.answer = {
      source: 'friendsofphp',
      records: [
        record({}),
        record({
          remoteId: 'acme/lib/CVE-2026-0003.yaml',
          cve: 'CVE-2026-0003',
          affectedVersions: '<1.4.5',
        }),
      ],
      problems: [],
      fingerprint: 'c3',
    };
    const result = await scan();
    expect(result.sources[0]).toMatchObject({ added: 0, changed: 1, unchanged: 1 });
    expect(result).toMatchObject({ advisories_added: 0, advisories_updated: 1, new_matches: 1 });
  });

  it("makes exactly the concerned served package's cached Composer answers forget", async () => {
    const { deps } = t.runtime.services;
    const advisories = unguarded(t.runtime.services.advisories, 'imports run as background work');
    const generation = () => deps.generations.current('default');
    const own = () => deps.generations.packageCurrent('default', 'acme/lib');
    const [tenantBefore, ownBefore] = [generation(), own()];
    fop.answer = {
      source: 'friendsofphp',
      records: [
        record({
          remoteId: 'other/thing/1.yaml',
          packageName: 'other/thing',
          cve: 'CVE-2026-0100',
        }),
      ],
      problems: [],
      fingerprint: 'c4',
    };
    expect(await advisories.runImport('default')).toMatchObject({ advisories_added: 1 });
    expect([generation(), own()]).toEqual([tenantBefore, ownBefore]);
    fop.answer = {
      source: 'friendsofphp',
      records: [record({ remoteId: 'acme/lib/2.yaml', cve: 'CVE-2026-0101' })],
      problems: [],
      fingerprint: 'c5',
    };
    expect(await advisories.runImport('default')).toMatchObject({ advisories_added: 1 });
    // The package's documents forget; the tenant's others keep their cache.
    expect(own()).toBe(ownBefore + 1);
    expect(generation()).toBe(tenantBefore);
  });

  it('is scheduled every ADVISORIES_SYNC_INTERVAL_MINUTES', async () => {
    const { Scheduler } = await import('../tasks/scheduler.js');
    const scheduler = new Scheduler(
      t.runtime.services.deps,
      unguarded(t.runtime.services.tasks, 'the scheduler'),
      {
        syncIntervalMinutes: 0,
        advisoryIntervalMinutes: 60,
      },
    );
    await waitFor(
      () =>
        t.db.selectFrom('tasks').select('status').where('type', '=', 'advisories.import').execute(),
      (rows) => rows.every((r) => r.status === 'done'),
    );
    const scheduled = () =>
      t.db
        .selectFrom('tasks')
        .select('id')
        .where('type', '=', 'advisories.import')
        .where('id', 'like', 'sched:%')
        .execute();
    const before = (await scheduled()).length;
    const at = new Date('2030-01-01T00:00:00Z');
    await scheduler.tick(at);
    await waitFor(scheduled, (rows) => rows.length === before + 1);
    const off = new Scheduler(
      t.runtime.services.deps,
      unguarded(t.runtime.services.tasks, 'the scheduler'),
      {
        syncIntervalMinutes: 0,
        advisoryIntervalMinutes: 0,
      },
    );
    await off.tick(new Date('2031-01-01T00:00:00Z'));
    expect(await scheduled()).toHaveLength(before + 1);
  });
});
