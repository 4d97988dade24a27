import { assertCountLeft } from '../tenants/plan.js';
import { transact } from '../../unit-of-work.js';
import type { Ctx, Deps } from '../../context.js';
import { nowIso } from '../../context.js';
import { conflict, forbidden, invalid, notFound } from '../../errors.js';
import { newId } from '../../infra/crypto.js';
import { isUniqueViolation } from '../../infra/db/errors.js';
import { rebuildPackageMetadata } from '../../composer/metadata.js';
import { customerPackageAccess } from '../../composer/visibility.js';
import { recountStorage } from '../usage/storage-counter.js';
import type { EnqueueOptions, TaskService } from '../tasks/service.js';
import type { TaskRow } from '../tasks/store.js';
import { queuePackageSync } from './sync-queue.js';
import type { SyncService } from '../sync/service.js';
import { assertSyncableAlone } from './sync-rule.js';
import { checkMonorepoPaths, normalizedOrInvalid } from './input.js';
import type { AddPackageInput } from './schema.js';
import * as store from './store.js';
import type { PackageRow, VersionRow } from './store.js';
import { archiveRange } from './catalog.js';
import type { Db } from '../../infra/db/connection.js';
import { GitError } from '../../infra/git/errors.js';
import { repositoryKey, repositoryUrlProblem } from '../../infra/git/repository-url.js';

/** Turns `vendor` and `name` path parts into a package name, or a 404 for malformed names. */
export function packageName(vendor: string, name: string): string {
  return `${vendor}/${name}`.toLowerCase();
}

/** Work of another area that a package removal does in its unit, before the rows go. */
export type PackageRemovalHook = (db: Db, tenantId: string, names: string[]) => Promise<void>;

export class PackageService {
  /** Set by createServices (the advisories area forgets its vendor advisories of the package). */
  readonly removalHooks: PackageRemovalHook[] = [];

  constructor(
    private readonly deps: Deps,
    private readonly tasks: TaskService,
    private readonly syncs: SyncService,
  ) {}

  async get(ctx: Ctx, name: string): Promise<PackageRow> {
    const row = await store.findPackageByName(this.deps.db, ctx.tenantId, name.toLowerCase());
    if (!row) throw notFound(`Package ${name}`);
    return row;
  }

  list(ctx: Ctx, filter: { q?: string; offset: number; limit: number }) {
    return store.listPackages(this.deps.db, ctx.tenantId, filter);
  }

  async detail(ctx: Ctx, name: string) {
    const row = await this.get(ctx, name);
    const [versions, downloads] = await Promise.all([
      store.listVersions(this.deps.db, row),
      store.downloadsByVersion(this.deps.db, row),
    ]);
    return { row, versions, downloads };
  }

  /** Adds a package and queues its first sync. */
  async add(ctx: Ctx, input: AddPackageInput): Promise<{ row: PackageRow; task: TaskRow | null }> {
    const type = input.type ?? 'git';
    const url = input.repository_url?.trim() ?? '';
    const monorepoPaths = input.monorepo ? checkMonorepoPaths(input.monorepo.paths) : null;
    if (monorepoPaths && type === 'artifact') {
      throw invalid('monorepo', 'artifact packages have no repository to hold child packages');
    }
    if (type !== 'artifact') {
      if (!url) throw invalid('repository_url', 'is required for git packages');
      // The form only: an unreachable repository is reported by the first sync (sync_error),
      // so a package can be added before its host, credentials or network are in place.
      const problem = repositoryUrlProblem(url, this.deps.config.allowLocalRepositories);
      if (problem) throw invalid('repository_url', problem);
    }
    if (await store.findPackageByName(this.deps.db, ctx.tenantId, input.name)) {
      throw conflict(`Package ${input.name} already exists`);
    }
    const now = nowIso();
    const row: PackageRow = {
      id: newId(),
      tenant_id: ctx.tenantId,
      name: input.name,
      description: null,
      repository_url: url,
      repository_key: repositoryKey(url),
      type,
      latest_version: null,
      default_branch: null,
      readme: null,
      synced_at: null,
      sync_status: type === 'artifact' ? 'ok' : 'pending',
      sync_error: null,
      sync_skipped: '[]',
      abandoned: 0,
      created_at: now,
      updated_at: now,
    };
    try {
      await transact(this.deps, ctx, async ({ db: trx, audit, emit }) => {
        await assertCountLeft(this.deps, trx, ctx.tenantId, 'packages');
        await store.insertPackage(trx, row, monorepoPaths);
        emit('package.created', { package: row.name });
        await audit({
          action: 'package.add',
          target: { type: 'package', id: row.name },
          summary: { repository_url: row.repository_url, type, monorepo: monorepoPaths ?? null },
        });
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw conflict(`Package ${input.name} already exists`);
      }
      throw err;
    }
    const task = type === 'artifact' ? null : await this.queueSync(ctx, row);
    return { row, task };
  }

  async delete(ctx: Ctx, name: string): Promise<void> {
    const row = await this.get(ctx, name);
    await transact(this.deps, ctx, async ({ db: trx, accessChanged, audit, emit }) => {
      accessChanged();
      // A monorepo parent takes its child packages with it.
      const children = await store.monorepoChildIds(trx, ctx.tenantId, row.id);
      const ids = [row.id, ...children];
      const names = await store.packageNames(trx, ctx.tenantId, ids);
      for (const hook of this.removalHooks) {
        await hook(
          trx,
          ctx.tenantId,
          names.map((n) => n.name),
        );
      }
      await store.deletePackages(trx, ctx.tenantId, ids);
      await recountStorage(trx, ctx.tenantId);
      for (const { name: gone } of names) emit('package.deleted', { package: gone });
      await audit({
        action: 'package.delete',
        target: { type: 'package', id: row.name },
        summary: { children: children.length },
      });
    });
  }

  /** Refuses to sync or validate a monorepo child on its own (sync-rule.ts). */
  private assertNotMonorepoChild(row: PackageRow): Promise<void> {
    return assertSyncableAlone(this.deps.db, row);
  }

  /** Queues a sync, or returns the one already pending or running for this package. */
  /**
   * Queues a sync, or answers the pending or running one. With `afterRunning` (a push webhook),
   * a running sync may have fetched before the push: a follow-up is queued to run after it.
   */
  async requestSync(ctx: Ctx, name: string, options: EnqueueOptions = {}): Promise<TaskRow> {
    const row = await this.get(ctx, name);
    if (row.type === 'artifact') throw conflict('Artifact packages have no repository to sync');
    if (ctx.actor.kind === 'customer') await this.assertCustomerSees(ctx.actor.customerId, row);
    await this.assertNotMonorepoChild(row);
    return this.queueSync(ctx, row, options);
  }

  private async queueSync(
    ctx: Ctx,
    row: PackageRow,
    options: EnqueueOptions = {},
  ): Promise<TaskRow> {
    const auditAs = ctx.actor.kind === 'system' ? null : ctx;
    return (await queuePackageSync(this.deps, this.tasks, row, auditAs, options)).row;
  }

  private async assertCustomerSees(customerId: string, pkg: PackageRow): Promise<void> {
    const access = await customerPackageAccess(this.deps.db, pkg.tenant_id, customerId, pkg.id);
    if (!access.has(pkg.id)) throw forbidden(`This token cannot see ${pkg.name}`);
  }

  async version(
    ctx: Ctx,
    name: string,
    version: string,
  ): Promise<{ pkg: PackageRow; version: VersionRow }> {
    const pkg = await this.get(ctx, name);
    const found = await store.findVersion(this.deps.db, pkg, normalizedOrInvalid(version));
    if (!found) throw notFound(`Version ${version} of ${pkg.name}`);
    return { pkg, version: found };
  }

  /** Sets yanked or deprecated on one version and rebuilds the package's metadata. */
  async setFlag(
    ctx: Ctx,
    name: string,
    version: string,
    flag: 'yanked' | 'deprecated',
    value: boolean,
  ) {
    const found = await this.version(ctx, name, version);
    const updated = { ...found.version, [flag]: value ? 1 : 0, updated_at: nowIso() };
    await transact(this.deps, ctx, async ({ db: trx, accessChanged, audit, emit }) => {
      accessChanged();
      await store.setVersionFlag(
        trx,
        ctx.tenantId,
        found.version.id,
        flag,
        value,
        updated.updated_at,
      );
      await rebuildPackageMetadata(trx, ctx.tenantId, found.pkg.id);
      const verb = flag === 'yanked' ? (value ? 'yank' : 'unyank') : 'deprecate';
      const type = flag === 'yanked' ? `version.${verb}ed` : value ? 'version.deprecated' : null;
      if (type === 'version.yanked' || type === 'version.unyanked' || type === 'version.deprecated')
        emit(type, { package: found.pkg.name, version: found.version.version });
      await audit({
        action: `package.${verb}`,
        target: { type: 'package', id: found.pkg.name },
        summary: { version: found.version.version },
      });
    });
    const downloads = await store.downloadsByVersion(this.deps.db, found.pkg);
    return { version: updated, downloads: downloads.get(updated.version_normalized) ?? 0 };
  }

  /** Re-reads the repository and reports which refs would become versions; stores nothing. */
  async validate(ctx: Ctx, name: string) {
    const pkg = await this.get(ctx, name);
    if (pkg.type === 'artifact') throw conflict('Artifact packages have no repository to validate');
    await this.assertNotMonorepoChild(pkg);
    try {
      const { analysis } = await this.syncs.inspect(pkg);
      return {
        name: pkg.name,
        valid: analysis.candidates.length > 0,
        versions: analysis.candidates.map((c) => ({
          version: c.version,
          version_normalized: c.normalized,
          reference: c.commit,
        })),
        skipped: analysis.skipped,
        error: analysis.candidates.length > 0 ? null : 'No tag or branch can become a version',
      };
    } catch (err) {
      // Only what git reports about the repository is an answer; anything else is our fault.
      if (!(err instanceof GitError)) throw err;
      return {
        name: pkg.name,
        valid: false,
        versions: [],
        skipped: [],
        error: (err as Error).message,
      };
    }
  }

  async archive(ctx: Ctx, name: string, version: string) {
    const found = await this.version(ctx, name, version);
    const { version: row } = found;
    const archive = await this.deps.storage.getStream(row.dist_key, archiveRange(row));
    if (!archive) throw notFound(`Archive of ${found.pkg.name} ${found.version.version}`);
    return { ...found, archive };
  }
}
