import { maskedUpstreamUrl } from '../../config/proxy.js';
import type { ProxyVisibility } from '../../config/proxy.js';
import type { Ctx, Deps } from '../../context.js';
import { conflict, invalid, notFound } from '../../errors.js';
import { findPackageByName } from '../packages/catalog.js';
import { resolveRange } from '../stats/service.js';
import { isPackageName } from './documents.js';
import type { ProxyService } from './service.js';
import * as store from './store.js';
import { COUNTERS } from './store.js';
import { transact } from '../../unit-of-work.js';
import type { Counter } from './store.js';

export interface ProxyStatusView {
  enabled: boolean;
  upstream_url: string | null;
  upstream_reachable: boolean;
  last_success_at: string | null;
  last_error: string | null;
  metadata_ttl_seconds: number;
  visibility: ProxyVisibility;
  cached_packages: number;
  cached_archives: number;
  cached_bytes: number;
  frozen_packages: number;
}

const num = (v: unknown) => Number(v ?? 0);

/** The proxy's admin operations (docs/proxy.md): status, statistics, purge, freeze, alerts. */
export class ProxyAdmin {
  constructor(
    private readonly deps: Deps,
    private readonly proxy: ProxyService,
  ) {}

  private get db() {
    return this.deps.db;
  }

  async status(ctx: Ctx): Promise<ProxyStatusView> {
    const settings = this.deps.config.proxy;
    const [docs, archives, frozen, health] = await Promise.all([
      this.db
        .selectFrom('proxy_documents')
        .select((eb) => eb.fn.count<number>('name').distinct().as('n'))
        .where('tenant_id', '=', ctx.tenantId)
        .where('status', '=', 'ok')
        .executeTakeFirst(),
      this.db
        .selectFrom('proxy_versions')
        .select((eb) => [
          eb.fn.count<number>('archive_key').as('n'),
          eb.fn.coalesce(eb.fn.sum<number>('archive_size'), eb.lit(0)).as('bytes'),
        ])
        .where('tenant_id', '=', ctx.tenantId)
        .where('archive_key', 'is not', null)
        .executeTakeFirst(),
      store.frozenNames(this.db, ctx.tenantId),
      this.proxy.health?.status(ctx.tenantId),
    ]);
    return {
      enabled: this.proxy.enabled,
      upstream_url: maskedUpstreamUrl(settings),
      upstream_reachable: this.proxy.enabled && (health ? health.reachable === 1 : true),
      last_success_at: health?.last_success_at ?? null,
      last_error: health?.last_error ?? null,
      metadata_ttl_seconds: settings.metadataTtlSeconds,
      visibility: settings.visibility,
      cached_packages: num(docs?.n),
      cached_archives: num(archives?.n),
      cached_bytes: num(archives?.bytes),
      frozen_packages: frozen.length,
    };
  }

  async stats(ctx: Ctx, query: { from?: string; to?: string }) {
    const { from, to } = resolveRange(query);
    // This process's hits counted since the last batch write (other nodes' within a second).
    await this.proxy.hits.flush();
    const counters = await this.db
      .selectFrom('proxy_counters')
      .select(['metric', (eb) => eb.fn.sum<number>('value').as('total')])
      .where('tenant_id', '=', ctx.tenantId)
      .where('day', '>=', from)
      .where('day', '<=', to)
      .groupBy('metric')
      .execute();
    const totals = Object.fromEntries(COUNTERS.map((c) => [c, 0])) as Record<Counter, number>;
    for (const row of counters) {
      if ((COUNTERS as readonly string[]).includes(row.metric)) {
        totals[row.metric as Counter] = num(row.total);
      }
    }
    const byPackage = await this.db
      .selectFrom('proxy_downloads')
      .select(['name', (eb) => eb.fn.sum<number>('count').as('downloads')])
      .where('tenant_id', '=', ctx.tenantId)
      .where('day', '>=', from)
      .where('day', '<=', to)
      .groupBy('name')
      .orderBy('downloads', 'desc')
      .orderBy('name')
      .execute();
    return {
      ...totals,
      by_package: byPackage.map((r) => ({ name: r.name, downloads: num(r.downloads) })),
    };
  }

  /** A public package name from a path or body: lower case, Composer's form, not a private one. */
  private async publicName(ctx: Ctx, name: string, field: string): Promise<string> {
    const lower = name.toLowerCase();
    if (!isPackageName(lower)) throw invalid(field, 'must be a package name (vendor/name)');
    if (await findPackageByName(this.db, ctx.tenantId, lower)) {
      throw notFound(`Public package ${lower} (it is a private package of this registry)`);
    }
    return lower;
  }

  async purge(ctx: Ctx, input: { package?: string }) {
    const frozen = new Set(await store.frozenNames(this.db, ctx.tenantId));
    let only: string | null = null;
    if (input.package !== undefined) {
      only = input.package.toLowerCase();
      if (!isPackageName(only)) throw invalid('package', 'must be a package name (vendor/name)');
      if (frozen.has(only)) throw conflict(`${only} is frozen: unfreeze it before purging it`);
    }
    const keys: string[] = [];
    const result = await transact(this.deps, ctx, async ({ db: trx, afterCommit, audit }) => {
      // What customers are served of public packages changes: caches forget after commit.
      afterCommit(() => this.proxy.changed(ctx.tenantId));
      let docs = trx
        .selectFrom('proxy_documents')
        .select('name')
        .where('tenant_id', '=', ctx.tenantId);
      let versions = trx
        .selectFrom('proxy_versions')
        .select(['name', 'archive_key', 'archive_size'])
        .where('tenant_id', '=', ctx.tenantId);
      if (only) {
        docs = docs.where('name', '=', only);
        versions = versions.where('name', '=', only);
      }
      const names = new Set<string>();
      for (const d of await docs.execute()) if (!frozen.has(d.name)) names.add(d.name);
      let archives = 0;
      let bytes = 0;
      for (const v of await versions.execute()) {
        if (frozen.has(v.name)) continue;
        names.add(v.name);
        if (v.archive_key) {
          keys.push(v.archive_key);
          archives += 1;
          bytes += num(v.archive_size);
        }
      }
      const list = [...names];
      for (let i = 0; i < list.length; i += 200) {
        const chunk = list.slice(i, i + 200);
        for (const table of ['proxy_documents', 'proxy_versions'] as const) {
          await trx
            .deleteFrom(table)
            .where('tenant_id', '=', ctx.tenantId)
            .where('name', 'in', chunk)
            .execute();
        }
      }
      const out = { purged_packages: list.length, purged_archives: archives, freed_bytes: bytes };
      await audit({
        action: 'proxy.purge',
        target: { type: 'proxy', id: only ?? '*' },
        summary: out,
      });
      return out;
    });
    // Objects go after the rows: a failure here leaves files nothing points at, never the reverse.
    for (const key of keys) await this.deps.storage.delete(key);
    return result;
  }

  async freeze(ctx: Ctx, rawName: string) {
    const name = await this.publicName(ctx, rawName, 'name');
    // Freezing a name never fetched fetches it first (404/502 when the upstream cannot).
    const kept = await store.findDocument(this.db, ctx.tenantId, name, 'tags');
    if (!kept || kept.status !== 'ok') await this.proxy.document(ctx.tenantId, name, 'tags');
    const frozenAt = new Date().toISOString();
    await transact(this.deps, ctx, async ({ db: trx, afterCommit, audit }) => {
      afterCommit(() => this.proxy.changed(ctx.tenantId));
      await trx
        .insertInto('proxy_freezes')
        .values({ tenant_id: ctx.tenantId, name, frozen_at: frozenAt })
        .onConflict((oc) => oc.columns(['tenant_id', 'name']).doNothing())
        .execute();
      await audit({
        action: 'proxy.freeze',
        target: { type: 'proxy_package', id: name },
      });
    });
    return this.frozenView(ctx, name);
  }

  async unfreeze(ctx: Ctx, rawName: string) {
    const name = await this.publicName(ctx, rawName, 'name');
    await transact(this.deps, ctx, async ({ db: trx, afterCommit, audit }) => {
      afterCommit(() => this.proxy.changed(ctx.tenantId));
      await trx
        .deleteFrom('proxy_freezes')
        .where('tenant_id', '=', ctx.tenantId)
        .where('name', '=', name)
        .execute();
      await audit({
        action: 'proxy.unfreeze',
        target: { type: 'proxy_package', id: name },
      });
    });
    return this.frozenView(ctx, name);
  }

  private async frozenView(ctx: Ctx, name: string) {
    const row = await this.db
      .selectFrom('proxy_freezes')
      .select('frozen_at')
      .where('tenant_id', '=', ctx.tenantId)
      .where('name', '=', name)
      .executeTakeFirst();
    const versions = await this.db
      .selectFrom('proxy_versions')
      .select('version')
      .where('tenant_id', '=', ctx.tenantId)
      .where('name', '=', name)
      .orderBy('version_normalized', 'desc')
      .execute();
    return {
      name,
      frozen: Boolean(row),
      frozen_at: row?.frozen_at ?? null,
      versions: [...new Set(versions.map((v) => v.version))],
    };
  }

  async alerts(ctx: Ctx, page: { offset: number; limit: number }) {
    const base = this.db.selectFrom('proxy_alerts').where('tenant_id', '=', ctx.tenantId);
    const [rows, total] = await Promise.all([
      base
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .offset(page.offset)
        .limit(page.limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ]);
    return { rows, total: num(total?.n) };
  }
}
