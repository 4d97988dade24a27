import path from 'node:path';
import type { Ctx, Deps } from '../../context.js';
import { transact } from '../../unit-of-work.js';
import { nowIso } from '../../context.js';
import { ObjectReader, findReadme, listRefs, mirrorRepository } from '../../infra/git/index.js';
import { assertRepositoryAllowed } from '../../infra/git/host-guard.js';
import type { RepositoryRefs } from '../../infra/git/index.js';
import { findPackageById, listVersions } from '../packages/catalog.js';
import { findMonorepoPaths } from '../monorepo/paths.js';
import { setSyncStatus } from './store.js';
import type { PackageRow, VersionRow } from '../packages/catalog.js';
import { analyzeRefs } from './analyze.js';
import { RepositoryCredentials } from './credentials.js';
import type { Analysis } from './analyze.js';
import { archiveJobs, buildArchives } from './archives.js';
import { assertStorageLeft } from '../usage/service.js';
import { raiseUsageNotifications } from '../usage/notifications.js';
import { recountStorage } from '../usage/storage-counter.js';
import type { SyncResult, ChildResult, Target } from './types.js';
import { planChildren } from './monorepo-plan.js';
import { emitSynced, recordSyncFailure } from './synced-events.js';
import { assertSomeVersion, writeTarget, monorepoParentOf } from './write-versions.js';
export { monorepoParentOf };
export type { SyncResult, ChildResult };

/** What a repository's refs would become, as read by SyncService.inspect. */
export interface Inspection {
  dir: string;
  refs: RepositoryRefs;
  analysis: Analysis;
  defaultCommit: string | null;
}

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

  /**
   * Packages this process synced in full: later syncs read only the refs that moved (a version
   * still at its commit keeps its row, metadata and archive). The first sync of a package in a
   * process reads everything, so metadata written by an older release is refreshed once.
   */
  private readonly fullySynced = new Set<string>();

  /**
   * Fetches the repository and reads what each ref would become, changing nothing stored. With
   * `known`, refs still at the commit of a known version are taken from it, not read again.
   */
  async inspect(pkg: PackageRow, known?: readonly VersionRow[]): Promise<Inspection> {
    const { reader, ...inspection } = await this.open(pkg, known);
    await reader.close();
    return inspection;
  }

  /** inspect, leaving open the repository's object reader (the caller closes it). */
  private async open(
    pkg: PackageRow,
    known?: readonly VersionRow[],
  ): Promise<Inspection & { reader: ObjectReader }> {
    const timeoutMs = this.deps.config.gitTimeoutMs;
    const dir = this.mirrorDir(pkg);
    const pin = await assertRepositoryAllowed(pkg.repository_url, this.deps.config);
    const credentials = await this.credentials.resolve(pkg.tenant_id, pkg.repository_url);
    // One `git cat-file` process reads every object the sync needs. On an existing mirror it
    // starts while the fetch runs, just after it (it finds what the fetch brings); a first clone
    // comes first.
    const started: { reader?: ObjectReader } = {};
    try {
      const fetched = await mirrorRepository(pkg.repository_url, dir, {
        timeoutMs,
        credentials,
        pin,
        fetching: () => {
          started.reader = new ObjectReader(dir, { timeoutMs });
        },
      });
      // After a clone the reader starts while git lists the refs.
      const reader = (started.reader ??= new ObjectReader(dir, { timeoutMs }));
      // A clone or an update that fetched exactly the listed refs knows them; else git lists them.
      const refs = fetched ?? (await listRefs(dir, { timeoutMs }));
      const analysis = await analyzeRefs(dir, pkg.name, refs, { timeoutMs, known, reader });
      const defaultCommit =
        refs.branches.find((b) => b.name === refs.defaultBranch)?.commit ?? null;
      return { dir, refs, analysis, defaultCommit, reader };
    } catch (err) {
      await started.reader?.close();
      throw err;
    }
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
    const pkg = await findPackageById(db, tenantId, packageId);
    if (!pkg) throw new Error(`Package ${packageId} no longer exists`);
    if (await monorepoParentOf(db, pkg.tenant_id, pkg.id)) {
      // Queued by sync-all or the scheduler: the parent's own sync refreshes this package.
      await setSyncStatus(db, pkg, 'ok', 'pending');
      return { versions: 0, versions_added: [], versions_removed: [], skipped: [] };
    }
    await setSyncStatus(db, pkg, 'running');
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
      await recordSyncFailure(this.deps, pkg, message);
      this.publish(pkg, 'failed', null, message, started);
      throw err;
    }
  }

  private async syncPackage(
    pkg: PackageRow,
    signal?: AbortSignal,
  ): Promise<{ result: SyncResult; children: { pkg: PackageRow; result: ChildResult }[] }> {
    const existing = await listVersions(this.deps.db, pkg);
    const incremental = this.fullySynced.has(`${pkg.tenant_id}/${pkg.id}`);
    const opened = await this.open(pkg, incremental ? existing : undefined);
    try {
      return await this.write(pkg, opened, existing, signal);
    } finally {
      // Closed already on success (before the commit); this is for failures on the way.
      await opened.reader.close();
    }
  }

  private async write(
    pkg: PackageRow,
    { dir, refs, analysis, defaultCommit, reader }: Inspection & { reader: ObjectReader },
    existing: VersionRow[],
    signal?: AbortSignal,
  ): Promise<{ result: SyncResult; children: { pkg: PackageRow; result: ChildResult }[] }> {
    const { db, storage, config } = this.deps;
    const timeoutMs = config.gitTimeoutMs;
    const monorepo = await findMonorepoPaths(db, pkg.tenant_id, pkg.id);
    // The README only changes with the default branch.
    const sameDefault = analysis.candidates.some((c) => c.defaultBranch && c.unchanged);
    const readme = sameDefault
      ? pkg.readme
      : defaultCommit
        ? ((await findReadme(dir, defaultCommit, { timeoutMs, reader }))?.content ?? null)
        : null;
    const root: Target = {
      pkg,
      isNew: false,
      path: '',
      // Assigned, not spread: a stored candidate parses its metadata only when asked.
      candidates: analysis.candidates.map((c) => Object.assign(c, { subdir: '' })),
      skipped: analysis.skipped,
      existing,
      readme,
    };
    const children = monorepo
      ? await planChildren(this.deps, pkg, dir, refs, monorepo, reader)
      : { targets: [], skipped: [] };

    if (monorepo) {
      // A parent without a root composer.json is fine; its children are what it publishes.
      if (root.skipped.every((s) => s.reason === 'no composer.json')) root.skipped = [];
      root.skipped.push(...children.skipped);
    }
    assertSomeVersion(root, children.targets, monorepo !== undefined);

    const targets = [root, ...children.targets];
    const { jobs, reused } = archiveJobs(targets);
    // Past a storage limit no new archive is written; the versions stored so far stay.
    if (jobs.length > 0) await assertStorageLeft(this.deps, pkg.tenant_id);
    const built = await buildArchives(storage, dir, jobs, { timeoutMs, reader });
    for (const [slot, archive] of reused) built.set(slot, archive);
    // Nothing is read from git past this point. The reader goes now, not after the commit: once
    // the versions commit (and the package reads ok), the task must end at once, or a sync asked
    // for right then would be answered with this one, still running.
    await reader.close();
    signal?.throwIfAborted();

    const now = nowIso();
    const results = new Map<Target, ChildResult>();
    const system: Ctx = { tenantId: pkg.tenant_id, actor: { kind: 'system', id: null } };
    await transact(this.deps, system, async (tx) => {
      const trx = tx.db;
      tx.accessChanged();
      tx.afterCommit(() => raiseUsageNotifications(this.deps, pkg.tenant_id, ['storage_bytes']));
      let changed = false;
      for (const t of targets) {
        // A task that lost its lease mid-write rolls back: the new owner writes the versions.
        signal?.throwIfAborted();
        const written = await writeTarget(trx, t, pkg, built, now);
        results.set(t, written.result);
        changed ||= written.changed;
      }
      // The counter follows the versions: a sync that wrote none leaves it as it is.
      if (changed) await recountStorage(trx, pkg.tenant_id);
      for (const t of targets) emitSynced(tx, t.pkg.name, results.get(t)!, t.isNew);
      signal?.throwIfAborted();
    });
    if (this.fullySynced.size > 100_000) this.fullySynced.clear();
    this.fullySynced.add(`${pkg.tenant_id}/${pkg.id}`);
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
