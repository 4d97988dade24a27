import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { basicAuth, createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import { addSyncedPackage, createCustomer } from '../../../test/factories.js';
import { UsageService } from '../usage/service.js';
import { resolveRange } from './service.js';

let t: TestApp;
let viewer: { authorization: string };
const repos: GitFixture[] = [];
const DAY = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const today = () => dayOf(Date.now());
let d5: string;
let d40: string;
let a: { id: string; name: string; auth: { authorization: string } };
let b: { id: string; name: string; auth: { authorization: string } };

async function api(method: string, url: string, payload?: unknown) {
  const res = await t.app.inject({
    method: method as 'GET',
    url,
    headers: t.admin,
    payload: payload as object,
  });
  if (res.statusCode >= 400) throw new Error(`${method} ${url} -> ${res.statusCode} ${res.body}`);
  return res.json();
}

async function customer(name: string, grants: string[]) {
  const c = await createCustomer(t, name);
  for (const pkg of grants) {
    await api('POST', `/api/v1/customers/${c.id}/packages`, { package: pkg, constraint: '*' });
  }
  const token = await api('POST', `/api/v1/customers/${c.id}/tokens`, { name: 't' });
  return { ...c, auth: { authorization: basicAuth(token.plain_token) } };
}

async function download(url: string, auth: { authorization: string }) {
  const res = await t.app.inject({ url, headers: auth });
  if (res.statusCode !== 200) throw new Error(`GET ${url} -> ${res.statusCode} ${res.body}`);
  return res;
}

/** Downloads with the clock set to noon UTC of `day`, so they are counted on that day. */
async function downloadOn(day: string, url: string, auth: { authorization: string }) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(`${day}T12:00:00Z`));
  try {
    await download(url, auth);
  } finally {
    vi.useRealTimers();
  }
}

const stats = (url: string, headers: Record<string, string> = t.admin) =>
  t.app.inject({ url: `/api/v1${url}`, headers });

beforeAll(async () => {
  t = await createTestApp({ BANDWIDTH_LIMIT_BYTES: '0' });
  const lib = new GitFixture('acme/lib');
  lib.release('1.0.0').release('v1.1.0');
  const other = new GitFixture('acme/other');
  other.release('1.0.0');
  repos.push(lib, other);
  await addSyncedPackage(t, 'acme/lib', lib.url);
  await addSyncedPackage(t, 'acme/other', other.url);
  a = await customer('Alpha', ['acme/lib', 'acme/other']);
  b = await customer('Beta', ['acme/lib']);
  const team = await api('POST', '/api/v1/team/tokens', { name: 'read only', level: 'viewer' });
  viewer = { authorization: `Bearer ${team.plain_token}` };

  const now = Date.now();
  d5 = dayOf(now - 5 * DAY);
  d40 = dayOf(now - 40 * DAY);
  // Alpha: 1 on d40 (outside the default range), 2 of v1.1.0 on d5, 3 today.
  await downloadOn(d40, '/dist/acme/lib/1.0.0.zip', a.auth);
  await downloadOn(d5, '/dist/acme/lib/1.1.0.zip', a.auth);
  await downloadOn(d5, '/dist/acme/lib/v1.1.0.0.zip', a.auth);
  await download('/dist/acme/lib/1.0.0.zip', a.auth);
  await download('/dist/acme/lib/1.0.0.0.zip', a.auth);
  await download('/dist/acme/other/1.0.0.zip', a.auth);
  // Beta: 1 today.
  await download('/dist/acme/lib/1.0.0.zip', b.auth);
});
afterAll(async () => {
  await t.close();
  repos.forEach((r) => r.remove());
});

describe('statistics', () => {
  it('GET /stats: totals, catalogue counts, continuous by_day, by_package and by_customer', async () => {
    const res = await stats('/stats');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const lib = await api('GET', '/api/v1/packages/acme/lib');
    const other = await api('GET', '/api/v1/packages/acme/other');
    expect(body).toMatchObject({
      total_downloads: 6,
      packages: 2,
      customers: 2,
      versions: lib.versions.length + other.versions.length,
      by_package: [
        { name: 'acme/lib', downloads: 5 },
        { name: 'acme/other', downloads: 1 },
      ],
      by_customer: [
        { customer_id: a.id, name: 'Alpha', downloads: 5 },
        { customer_id: b.id, name: 'Beta', downloads: 1 },
      ],
    });
    expect(Object.keys(body).sort()).toEqual([
      'by_customer',
      'by_day',
      'by_package',
      'customers',
      'packages',
      'total_downloads',
      'versions',
    ]);
    // The last 30 days, today included, in order, zeros included.
    expect(body.by_day).toHaveLength(30);
    expect(body.by_day[29]).toEqual({ date: today(), downloads: 4 });
    expect(body.by_day[0].date).toBe(dayOf(Date.now() - 29 * DAY));
    expect(body.by_day.find((d: { date: string }) => d.date === d5)).toEqual({
      date: d5,
      downloads: 2,
    });
    expect(body.by_day.filter((d: { downloads: number }) => d.downloads === 0)).toHaveLength(28);
  });

  it('filters by date range (inclusive) and by customer', async () => {
    const wide = (await stats(`/stats?from=${d40}&to=${today()}`)).json();
    expect(wide.total_downloads).toBe(7);
    expect(wide.by_day).toHaveLength(41);
    expect(wide.by_day[0]).toEqual({ date: d40, downloads: 1 });

    const one = (await stats(`/stats?from=${d40}&to=${d40}`)).json();
    expect(one).toMatchObject({
      total_downloads: 1,
      by_day: [{ date: d40, downloads: 1 }],
      by_package: [{ name: 'acme/lib', downloads: 1 }],
      by_customer: [{ customer_id: a.id, downloads: 1 }],
    });

    // Only `to`: the 30 days ending there.
    const ending = (await stats(`/stats?to=${d5}`)).json();
    expect(ending.by_day).toHaveLength(30);
    expect(ending.by_day[29]).toEqual({ date: d5, downloads: 2 });
    expect(ending.total_downloads).toBe(2);

    const beta = (await stats(`/stats?customer_id=${b.id}`)).json();
    expect(beta).toMatchObject({
      total_downloads: 1,
      by_package: [{ name: 'acme/lib', downloads: 1 }],
      by_customer: [{ customer_id: b.id, name: 'Beta', downloads: 1 }],
    });
    const empty = (await stats(`/stats?from=2000-01-01&to=2000-01-03`)).json();
    expect(empty).toMatchObject({ total_downloads: 0, by_package: [], by_customer: [] });
    expect(empty.by_day).toEqual([
      { date: '2000-01-01', downloads: 0 },
      { date: '2000-01-02', downloads: 0 },
      { date: '2000-01-03', downloads: 0 },
    ]);
  });

  it('GET /stats/daily answers the by_day series', async () => {
    const overview = (await stats('/stats')).json();
    const daily = await stats('/stats/daily');
    expect(daily.statusCode).toBe(200);
    expect(daily.json()).toEqual({ data: overview.by_day });
    const ranged = (await stats(`/stats/daily?from=${d5}&to=${d5}&customer_id=${a.id}`)).json();
    expect(ranged).toEqual({ data: [{ date: d5, downloads: 2 }] });
  });

  it('GET /stats/packages/{vendor}/{name}: per version with pretty versions, and per day', async () => {
    const res = await stats('/stats/packages/acme/lib');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      name: 'acme/lib',
      total_downloads: 5,
      by_version: [
        { version: '1.0.0', downloads: 3 },
        { version: 'v1.1.0', downloads: 2 },
      ],
    });
    expect(body.by_day).toHaveLength(30);
    expect(body.by_day[29]).toEqual({ date: today(), downloads: 3 });

    const wide = (await stats(`/stats/packages/ACME/Lib?from=${d40}`)).json();
    expect(wide.total_downloads).toBe(6);
    expect(wide.by_version[0]).toEqual({ version: '1.0.0', downloads: 4 });

    const beta = (await stats(`/stats/packages/acme/lib?customer_id=${b.id}`)).json();
    expect(beta.by_version).toEqual([{ version: '1.0.0', downloads: 1 }]);
  });

  it('GET …/versions/{version}: matched by normalized form, shown by pretty version', async () => {
    for (const v of ['v1.1.0', '1.1.0', '1.1.0.0']) {
      const res = await stats(`/stats/packages/acme/lib/versions/${v}`);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ name: 'acme/lib', version: 'v1.1.0', total_downloads: 2 });
      expect(body.by_day).toHaveLength(30);
      expect(body.by_day.find((d: { date: string }) => d.date === d5).downloads).toBe(2);
    }
    const old = (
      await stats(`/stats/packages/acme/lib/versions/1.0.0?from=${d40}&to=${d40}`)
    ).json();
    expect(old).toEqual({
      name: 'acme/lib',
      version: '1.0.0',
      total_downloads: 1,
      by_day: [{ date: d40, downloads: 1 }],
    });
    const dev = (await stats('/stats/packages/acme/lib/versions/dev-main')).json();
    expect(dev).toMatchObject({ version: 'dev-main', total_downloads: 0 });
  });

  it('answers 404 for unknown packages, versions and customers', async () => {
    for (const url of [
      '/stats/packages/acme/missing',
      '/stats/packages/acme/missing/versions/1.0.0',
      '/stats/packages/acme/lib/versions/9.9.9',
      '/stats/packages/acme/lib/versions/not a version',
      '/stats/packages/acme/other/versions/1.1.0',
      '/stats?customer_id=nobody',
      '/stats/daily?customer_id=nobody',
    ]) {
      const res = await stats(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ error: 'not_found', code: 'NOT_FOUND' });
    }
  });

  it('rejects bad dates, inverted ranges and unknown parameters with VALIDATION_ERROR', async () => {
    const cases: [string, string][] = [
      ['/stats?from=2026-13-01', 'from'],
      ['/stats?to=2026-02-30', 'to'],
      ['/stats?from=yesterday', 'from'],
      ['/stats/daily?from=2026-01-02&to=2026-01-01', 'from'],
      ['/stats/packages/acme/lib?to=20260101', 'to'],
      ['/stats/packages/acme/lib/versions/1.0.0?from=2026-1-1', 'from'],
      ['/stats?from=1990-01-01&to=2026-01-01', 'from'],
      ['/stats?form=2026-01-01', 'form'],
    ];
    for (const [url, field] of cases) {
      const res = await stats(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({ error: 'validation_error', code: 'VALIDATION_ERROR' });
      expect(res.json().details[0].field, url).toBe(field);
    }
  });

  it('needs an admin token; viewers may read', async () => {
    for (const url of [
      '/stats',
      '/stats/daily',
      '/stats/packages/acme/lib',
      '/stats/packages/acme/lib/versions/1.0.0',
    ]) {
      expect((await t.app.inject({ url: `/api/v1${url}` })).statusCode, url).toBe(401);
      expect((await stats(url, a.auth)).statusCode, url).toBe(401);
      expect((await stats(url, viewer)).statusCode, url).toBe(200);
    }
  });

  it('counts 100 concurrent downloads exactly, each committed before its archive is sent', async () => {
    const c = await customer('Gamma', ['acme/other']);
    const db = t.db;
    const usage = t.runtime.services.composer.usage;
    const rows = () =>
      db
        .selectFrom('downloads')
        .select(['count', 'bytes'])
        .where('customer_id', '=', c.id)
        .execute();
    const bandwidth = async () =>
      Number(
        (
          await db
            .selectFrom('usage_counters')
            .select('value')
            .where('metric', '=', 'bandwidth')
            .where('period', '=', today().slice(0, 7))
            .executeTakeFirst()
        )?.value ?? 0,
      );
    await usage.flush();
    const bandwidthBefore = await bandwidth();

    const first = await download('/dist/acme/other/1.0.0.zip', c.auth);
    // Already in the database when the archive arrives (a node dying now loses nothing).
    const size = first.rawPayload.length;
    expect((await rows()).map((r) => Number(r.count))).toEqual([1]);
    const figures = await usage.figures('default');
    expect(figures.bandwidthUsed).toBe(bandwidthBefore + size);

    const results = await Promise.all(
      Array.from({ length: 99 }, () =>
        t.app.inject({ url: '/dist/acme/other/1.0.0.zip', headers: c.auth }),
      ),
    );
    expect(results.every((r) => r.statusCode === 200)).toBe(true);

    const res = (await stats(`/stats?customer_id=${c.id}`)).json();
    expect(res.total_downloads).toBe(100);
    expect(res.by_package).toEqual([{ name: 'acme/other', downloads: 100 }]);
    const version = (
      await stats(`/stats/packages/acme/other/versions/1.0.0?customer_id=${c.id}`)
    ).json();
    expect(version.total_downloads).toBe(100);
    const written = await rows();
    expect(written).toHaveLength(1);
    expect(Number(written[0]?.count)).toBe(100);
    expect(Number(written[0]?.bytes)).toBe(100 * size);
    expect(await bandwidth()).toBe(bandwidthBefore + 100 * size);
  });

  it('has written a download when its archive arrives, and several recorded together in one go', async () => {
    const c = await customer('Delta', ['acme/other']);
    const db = t.db;
    const count = async () =>
      (
        await db
          .selectFrom('downloads')
          .select('count')
          .where('customer_id', '=', c.id)
          .executeTakeFirst()
      )?.count;
    await download('/dist/acme/other/1.0.0.zip', c.auth);
    expect(Number(await count())).toBe(1);

    // Downloads recorded while a write is under way share the next write (group commit).
    const usage = new UsageService(t.runtime.services.deps);
    await Promise.all([
      usage.recordDownload('default', c.id, 'pkg-x', '1.0.0.0', 10),
      usage.recordDownload('default', c.id, 'pkg-x', '1.0.0.0', 10),
    ]);
    await usage.close();
    const row = await db
      .selectFrom('downloads')
      .select(['count', 'bytes'])
      .where('package_id', '=', 'pkg-x')
      .executeTakeFirst();
    expect(row && { count: Number(row.count), bytes: Number(row.bytes) }).toEqual({
      count: 2,
      bytes: 20,
    });
  });
});

describe('resolveRange', () => {
  it('defaults to the last 30 days, today included', () => {
    const now = Date.parse('2026-03-01T23:59:00Z');
    const r = resolveRange({}, now);
    expect(r.to).toBe('2026-03-01');
    expect(r.from).toBe('2026-01-31');
    expect(r.days).toHaveLength(30);
    expect(resolveRange({ from: '2024-02-28', to: '2024-03-01' }, now).days).toEqual([
      '2024-02-28',
      '2024-02-29',
      '2024-03-01',
    ]);
  });
});
