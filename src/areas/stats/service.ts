import type { Ctx, Deps } from '../../context.js';
import { invalid, notFound } from '../../errors.js';
import { normalizeVersion } from '../../composer/semver/index.js';
import type { UsageService } from '../usage/service.js';
import type {
  DailyStatsDto,
  DayCount,
  OverviewDto,
  PackageStatsDto,
  StatsQueryInput,
  VersionStatsDto,
} from './schema.js';
import * as store from './store.js';
import type { DownloadFilter } from './store.js';

const DAY_MS = 86_400_000;
/** The default range: the last 30 days, today included. */
export const DEFAULT_RANGE_DAYS = 30;
/** The longest range one request may ask for (about ten years of by_day entries). */
export const MAX_RANGE_DAYS = 3660;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function parseDay(field: string, value: string): number {
  const ms = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(ms) || isoDay(ms) !== value) {
    throw invalid(field, 'must be a date (YYYY-MM-DD)');
  }
  return ms;
}

/** The inclusive day range of a query, with the defaults and checks of the statistics contract. */
export function resolveRange(
  query: { from?: string; to?: string },
  now = Date.now(),
): { from: string; to: string; days: string[] } {
  const to = query.to !== undefined ? parseDay('to', query.to) : Date.parse(isoDay(now));
  const from =
    query.from !== undefined
      ? parseDay('from', query.from)
      : to - (DEFAULT_RANGE_DAYS - 1) * DAY_MS;
  if (from > to) throw invalid('from', 'must not be after to');
  const length = (to - from) / DAY_MS + 1;
  if (length > MAX_RANGE_DAYS) {
    throw invalid('from', `the range may span at most ${MAX_RANGE_DAYS} days`);
  }
  const days: string[] = [];
  for (let ms = from; ms <= to; ms += DAY_MS) days.push(isoDay(ms));
  return { from: isoDay(from), to: isoDay(to), days };
}

/** Every day of the range in order, days without downloads as 0, so charts are continuous. */
function fillDays(days: string[], rows: { day: string; downloads: number }[]): DayCount[] {
  const byDay = new Map(rows.map((r) => [r.day, r.downloads]));
  return days.map((date) => ({ date, downloads: byDay.get(date) ?? 0 }));
}

const total = (rows: { downloads: number }[]) => rows.reduce((sum, r) => sum + r.downloads, 0);

const byDownloads =
  <T extends { downloads: number }>(key: (row: T) => string) =>
  (a: T, b: T) =>
    b.downloads - a.downloads || key(a).localeCompare(key(b));

/** Download statistics: totals, per package, version, customer and day, over a day range. */
export class StatsService {
  constructor(
    private readonly deps: Deps,
    private readonly usage: UsageService,
  ) {}

  private get db() {
    return this.deps.db;
  }

  async overview(ctx: Ctx, query: StatsQueryInput): Promise<OverviewDto> {
    const { filter, days } = await this.filter(ctx, query);
    const [perDay, perPackage, perCustomer, catalogue] = await Promise.all([
      store.downloadsByDay(this.db, filter),
      store.downloadsByPackage(this.db, filter),
      store.downloadsByCustomer(this.db, filter),
      store.catalogueCounts(this.db, ctx.tenantId),
    ]);
    return {
      total_downloads: total(perDay),
      ...catalogue,
      by_day: fillDays(days, perDay),
      by_package: perPackage.sort(byDownloads((r) => r.name)),
      by_customer: perCustomer.sort(byDownloads((r) => r.customer_id)),
    };
  }

  async daily(ctx: Ctx, query: StatsQueryInput): Promise<DailyStatsDto> {
    const { filter, days } = await this.filter(ctx, query);
    return { data: fillDays(days, await store.downloadsByDay(this.db, filter)) };
  }

  async package(ctx: Ctx, name: string, query: StatsQueryInput): Promise<PackageStatsDto> {
    const { filter, days } = await this.filter(ctx, query);
    const pkg = await this.findPackage(ctx, name);
    const scopedFilter = { ...filter, packageId: pkg.id };
    const [perDay, perVersion] = await Promise.all([
      store.downloadsByDay(this.db, scopedFilter),
      store.downloadsByVersion(this.db, scopedFilter),
    ]);
    return {
      name: pkg.name,
      total_downloads: total(perDay),
      by_version: perVersion.sort(byDownloads((r) => r.version)),
      by_day: fillDays(days, perDay),
    };
  }

  async version(
    ctx: Ctx,
    name: string,
    version: string,
    query: StatsQueryInput,
  ): Promise<VersionStatsDto> {
    const { filter, days } = await this.filter(ctx, query);
    const pkg = await this.findPackage(ctx, name);
    let normalized: string;
    try {
      normalized = normalizeVersion(version);
    } catch {
      throw notFound(`Version ${version} of ${pkg.name}`);
    }
    const row = await store.findVersion(this.db, ctx.tenantId, pkg.id, normalized);
    if (!row) throw notFound(`Version ${version} of ${pkg.name}`);
    const perDay = await store.downloadsByDay(this.db, {
      ...filter,
      packageId: pkg.id,
      normalized,
    });
    return {
      name: pkg.name,
      version: row.version,
      total_downloads: total(perDay),
      by_day: fillDays(days, perDay),
    };
  }

  /**
   * Checks the query and builds the download filter. Writes the buffered download counts first,
   * so what this process served is in the figures.
   */
  private async filter(
    ctx: Ctx,
    query: StatsQueryInput,
  ): Promise<{ filter: DownloadFilter; days: string[] }> {
    const { from, to, days } = resolveRange(query);
    if (
      query.customer_id !== undefined &&
      !(await store.customerExists(this.db, ctx.tenantId, query.customer_id))
    ) {
      throw notFound('Customer');
    }
    await this.usage.flush();
    return {
      filter: { tenantId: ctx.tenantId, from, to, customerId: query.customer_id },
      days,
    };
  }

  private async findPackage(ctx: Ctx, name: string) {
    const pkg = await store.findPackage(this.db, ctx.tenantId, name.toLowerCase());
    if (!pkg) throw notFound(`Package ${name}`);
    return pkg;
  }
}
