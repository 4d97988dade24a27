import path from 'node:path';
import type { Ctx, Deps } from '../../context.js';
import { transact } from '../../unit-of-work.js';
import { nowIso } from '../../context.js';
import { findReadme, listRefs, mirrorRepository } from '../../infra/git/index.js';
import { assertRepositoryAllowed } from '../../infra/git/host-guard.js';
import type { RepositoryRefs } from '../../infra/git/index.js';
import { rebuildPackageMetadata } from '../../composer/metadata.js';
import { listVersions } from '../packages/store.js';
import type { PackageRow } from '../packages/store.js';
import { analyzeRefs } from './analyze.js';
import { RepositoryCredentials } from './credentials.js';
import type { Analysis } from './analyze.js';
import { archiveKey, buildArchives } from './archives.js';
import { assertStorageLeft } from '../usage/service.js';
import { raiseUsageNotifications } from '../usage/notifications.js';
import { recountStorage } from '../usage/storage-counter.js';
import type { SyncResult, ChildResult, Target } from './types.js';
import { planChildren } from './monorepo-plan.js';
import { describe, latestVersion, writeVersions, monorepoParentOf } from './write-versions.js';
export { monorepoParentOf };
export type { SyncResult, ChildResult };

/** Mirrors a package's repository and turns its tags and branches into installable versions. */
export class SyncService {
  constructor(
    private readonly deps: Deps,
    /** Where private repositories get their credentials (GitHub App, OAuth connections). */
    readonly credentials: RepositoryCredentials = new RepositoryCredentials(),
  ) {}

  mirrorDir(pkg: Pick<PackageRow, 'tenant_id' | 'id'>): string {
    return path.join(this.deps.config.dataDir, 'repos', pkg.tenant_id, `${pkg.id}.git`);
  }

  /** Fetches the repository and reads what each ref would become, changing nothing stored. */
  async inspect(pkg: PackageRow): Promise<{
    dir: string;
    refs: RepositoryRefs;
    analysis: Analysis;
    defaultCommit: string | null;
  }> {
    const timeoutMs = this.deps.config.gitTimeoutMs;
    const dir = this.mirrorDir(pkg);
    const pin = await assertRepositoryAllowed(pkg.repository_url, this.deps.config);
    const credentials = await this.credentials.resolve(pkg.tenant_id, pkg.repository_url);
    await mirrorRepository(pkg.repository_url, dir, { timeoutMs, credentials, pin });
    const refs = await listRefs(dir, { timeoutMs });
    const analysis = await analyzeRefs(dir, pkg.name, refs, { timeoutMs });
    const defaultCommit = refs.branches.find((b) => b.name === refs.defaultBranch)?.commit ?? null;
    return { dir, refs, analysis, defaultCommit };
  }

  /**
   * One full sync. A failure before the final transaction leaves every stored version as it was
   * and records the error on the package. A monorepo child is synced by its parent only.
   */
  async sync(
    tenantId: string,
    packageId: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<SyncResult> {
    const { signal } = options;
    const db = this.deps.db;
    const pkg = await db
      .selectFrom('packages')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('id', '=', packageId)
      .executeTakeFirst();
    if (!pkg) throw new Error(`Package ${packageId} no longer exists`);
    if (await monorepoParentOf(db, pkg.tenant_id, pkg.id)) {
      // Queued by sync-all or the scheduler: the parent's own sync refreshes this package.
      await db
        .updateTable('packages')
        .set({ sync_status: 'ok' })
        .where('tenant_id', '=', pkg.tenant_id)
        .where('id', '=', pkg.id)
        .where('sync_status', '=', 'pending')
        .execute();
      return { versions: 0, versions_added: [], versions_removed: [], skipped: [] };
    }
    await db
      .updateTable('packages')
      .set({ sync_status: 'running' })
      .where('tenant_id', '=', pkg.tenant_id)
      .where('id', '=', pkg.id)
      .execute();
    const started = performance.now();
    try {
      // Published once the versions committed (syncPackage's unit of work moved the stamp).
      const { result, children } = await this.syncPackage(pkg, signal);
      this.publish(pkg, 'ok', result, null, started);
      for (const child of children) {
        this.publish(child.pkg, 'ok', { ...child.result, skipped: [] }, null, started);
      }
      return result;
    } catch (err) {
      // Stopped because the task's lease went: the worker that took the task over owns the
      // package's sync status now.
      if (signal?.aborted) throw err;
      const message = err instanceof Error ? err.message : String(err);
      await db
        .updateTable('packages')
        .set({ sync_status: 'failed', sync_error: message, updated_at: nowIso() })
        .where('tenant_id', '=', pkg.tenant_id)
        .where('id', '=', pkg.id)
        .execute();
      this.publish(pkg, 'failed', null, message, started);
      throw err;
    }
  }

  private async syncPackage(
    pkg: PackageRow,
    signal?: AbortSignal,
  ): Promise<{ result: SyncResult; children: { pkg: PackageRow; result: ChildResult }[] }> {
    const { db, storage, config } = this.deps;
    const timeoutMs = config.gitTimeoutMs;
    const { dir, refs, analysis, defaultCommit } = await this.inspect(pkg);
    const monorepo = await db
      .selectFrom('monorepos')
      .select('paths')
      .where('tenant_id', '=', pkg.tenant_id)
      .where('package_id', '=', pkg.id)
      .executeTakeFirst();
    const readme = defaultCommit ? await findReadme(dir, defaultCommit, { timeoutMs }) : null;
    const root: Target = {
      pkg,
      isNew: false,
      path: '',
      candidates: analysis.candidates.map((c) => ({ ...c, subdir: '' })),
      skipped: analysis.skipped,
      existing: await listVersions(db, pkg),
      readme: readme?.content ?? null,
    };
    const children = monorepo
      ? await planChildren(this.deps, pkg, dir, refs, JSON.parse(monorepo.paths) as string[])
      : { targets: [], skipped: [] };

    if (monorepo) {
      // A parent without a root composer.json is fine; its children are what it publishes.
      if (root.skipped.every((s) => s.reason === 'no composer.json')) root.skipped = [];
      root.skipped.push(...children.skipped);
    }
    const childVersions = children.targets.reduce((n, c) => n + c.candidates.length, 0);
    if (root.candidates.length === 0 && childVersions === 0) {
      const skipped = root.skipped;
      const noComposer = skipped.length === 0 || skipped.every((s) => s.reason.startsWith('no '));
      throw new Error(
        monorepo && noComposer
          ? 'No tag or branch of the repository has a composer.json at its root or in a folder matching the monorepo paths'
          : noComposer
            ? 'No tag or branch of the repository has a composer.json'
            : `No tag or branch could become a version: ${skipped
                .map((s) => `${s.ref}: ${s.reason}`)
                .slice(0, 5)
                .join('; ')}`,
      );
    }

    const targets = [root, ...children.targets];
    const jobs = targets.flatMap((t) => {
      const byNormalized = new Map(t.existing.map((v) => [v.version_normalized, v]));
      return t.candidates
        .map((c) => ({
          key: archiveKey(t.pkg.tenant_id, t.pkg.id, c.commit, c.subdir),
          commit: c.commit,
          subdir: c.subdir || undefined,
          previous: byNormalized.get(c.normalized),
        }))
        .filter((j) => j.previous?.reference !== j.commit || j.previous.dist_key !== j.key)
        .map(({ key, commit, subdir }) => ({ key, commit, subdir }));
    });
    // Past a storage limit no new archive is written; the versions stored so far stay.
    if (jobs.length > 0) await assertStorageLeft(this.deps, pkg.tenant_id);
    const built = await buildArchives(storage, dir, jobs, { timeoutMs });
    signal?.throwIfAborted();

    const now = nowIso();
    const results = new Map<Target, ChildResult>();
    const system: Ctx = { tenantId: pkg.tenant_id, actor: { kind: 'system', id: null } };
    await transact(this.deps, system, async (tx) => {
      const trx = tx.db;
      tx.accessChanged();
      tx.afterCommit(() => raiseUsageNotifications(this.deps, pkg.tenant_id, ['storage_bytes']));
      for (const t of targets) {
        // A task that lost its lease mid-write rolls back: the new owner writes the versions.
        signal?.throwIfAborted();
        if (t.isNew) {
          await trx.insertInto('packages').values(t.pkg).execute();
          await trx
            .insertInto('monorepo_children')
            .values({
              package_id: t.pkg.id,
              tenant_id: t.pkg.tenant_id,
              parent_id: pkg.id,
              path: t.path,
            })
            .execute();
        } else if (t !== root) {
          await trx
            .updateTable('monorepo_children')
            .set({ path: t.path })
            .where('tenant_id', '=', t.pkg.tenant_id)
            .where('package_id', '=', t.pkg.id)
            .execute();
        }
        const { added, removed } = await writeVersions(trx, t, built, now);
        results.set(t, {
          name: t.pkg.name,
          path: t.path,
          versions: t.candidates.length,
          versions_added: added,
          versions_removed: removed,
        });
        await trx
          .updateTable('packages')
          .set({
            description: describe(t.candidates),
            latest_version: latestVersion(t.candidates),
            default_branch: t.candidates.find((c) => c.defaultBranch)?.ref ?? null,
            readme: t.readme,
            synced_at: now,
            sync_status: 'ok',
            sync_error: null,
            sync_skipped: JSON.stringify(t.skipped),
            abandoned: t.candidates.some((c) => c.defaultBranch && c.composer.abandoned) ? 1 : 0,
            ...(t === root
              ? {}
              : { repository_url: pkg.repository_url, repository_key: pkg.repository_key }),
            updated_at: now,
          })
          .where('tenant_id', '=', t.pkg.tenant_id)
          .where('id', '=', t.pkg.id)
          .execute();
        await rebuildPackageMetadata(trx, t.pkg.tenant_id, t.pkg.id);
      }
      await recountStorage(trx, pkg.tenant_id);
      signal?.throwIfAborted();
    });
    const rootResult = results.get(root)!;
    const childResults = children.targets.map((t) => ({ pkg: t.pkg, result: results.get(t)! }));
    return {
      result: {
        versions: rootResult.versions,
        versions_added: rootResult.versions_added,
        versions_removed: rootResult.versions_removed,
        skipped: root.skipped,
        ...(monorepo ? { children: childResults.map((c) => c.result) } : {}),
      },
      children: childResults,
    };
  }

  private publish(
    pkg: PackageRow,
    status: 'ok' | 'failed',
    result: SyncResult | null,
    error: string | null,
    started: number,
  ) {
    this.deps.events.publish({
      type: 'package.synced',
      tenantId: pkg.tenant_id,
      package: pkg.name,
      status,
      versionsAdded: result?.versions_added ?? [],
      versionsRemoved: result?.versions_removed ?? [],
      error,
      at: nowIso(),
      durationMs: Math.round(performance.now() - started),
    });
  }
}
