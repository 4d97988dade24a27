import path from 'node:path';
import type { Ctx, Deps } from '../../context.js';
import { transact } from '../../unit-of-work.js';
import { nowIso } from '../../context.js';
import { newId } from '../../infra/crypto.js';
import type { Db } from '../../infra/db/connection.js';
import { findReadme, listDirectories, listRefs, mirrorRepository } from '../../infra/git/index.js';
import { assertPublicGitHost } from '../../infra/git/host-guard.js';
import type { RepositoryRefs } from '../../infra/git/index.js';
import { buildVersionEntry, rebuildPackageMetadata } from '../../composer/metadata.js';
import { compareVersions, parseStability } from '../../composer/semver/index.js';
import { PACKAGE_NAME_RE } from '../packages/schema.js';
import { findPackageByName, listVersions } from '../packages/store.js';
import type { PackageRow, VersionRow } from '../packages/store.js';
import { analyzeRefs } from './analyze.js';
import { RepositoryCredentials } from './credentials.js';
import type { Analysis, Candidate, SkippedRef } from './analyze.js';
import { archiveKey, buildArchives } from './archives.js';
import type { BuiltArchive } from './archives.js';
import { assertStorageLeft } from '../usage/service.js';

export interface SyncResult {
  versions: number;
  versions_added: string[];
  versions_removed: string[];
  skipped: SkippedRef[];
  /** Monorepo parents only: what happened to each child package. */
  children?: ChildResult[];
}

export interface ChildResult {
  name: string;
  path: string;
  versions: number;
  versions_added: string[];
  versions_removed: string[];
}

/** A candidate version and the folder its archive is built from ('' for the whole tree). */
type Placed = Candidate & { subdir: string };

/** One package (the synced one or a monorepo child) and the versions it should end up with. */
interface Target {
  pkg: PackageRow;
  /** New monorepo children are inserted in the final transaction. */
  isNew: boolean;
  path: string;
  candidates: Placed[];
  skipped: SkippedRef[];
  existing: VersionRow[];
  readme: string | null;
}

/** Commits listed with `git ls-tree` at once while looking for monorepo children. */
const TREE_CONCURRENCY = 8;

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
    if (this.deps.config.blockPrivateGitHosts) await assertPublicGitHost(pkg.repository_url);
    const credentials = await this.credentials.resolve(pkg.tenant_id, pkg.repository_url);
    await mirrorRepository(pkg.repository_url, dir, { timeoutMs, credentials });
    const refs = await listRefs(dir, { timeoutMs });
    const analysis = await analyzeRefs(dir, pkg.name, refs, { timeoutMs });
    const defaultCommit = refs.branches.find((b) => b.name === refs.defaultBranch)?.commit ?? null;
    return { dir, refs, analysis, defaultCommit };
  }

  /**
   * One full sync. A failure before the final transaction leaves every stored version as it was
   * and records the error on the package. A monorepo child is synced by its parent only.
   */
  async sync(tenantId: string, packageId: string): Promise<SyncResult> {
    const db = this.deps.db;
    const pkg = await db
      .selectFrom('packages')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('id', '=', packageId)
      .executeTakeFirst();
    if (!pkg) throw new Error(`Package ${packageId} no longer exists`);
    if (await monorepoParentOf(db, pkg.id)) {
      // Queued by sync-all or the scheduler: the parent's own sync refreshes this package.
      await db
        .updateTable('packages')
        .set({ sync_status: 'ok' })
        .where('id', '=', pkg.id)
        .where('sync_status', '=', 'pending')
        .execute();
      return { versions: 0, versions_added: [], versions_removed: [], skipped: [] };
    }
    await db
      .updateTable('packages')
      .set({ sync_status: 'running' })
      .where('id', '=', pkg.id)
      .execute();
    const started = performance.now();
    try {
      // Published once the versions committed (syncPackage's unit of work moved the stamp).
      const { result, children } = await this.syncPackage(pkg);
      this.publish(pkg, 'ok', result, null, started);
      for (const child of children) {
        this.publish(child.pkg, 'ok', { ...child.result, skipped: [] }, null, started);
      }
      return result;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await db
        .updateTable('packages')
        .set({ sync_status: 'failed', sync_error: message, updated_at: nowIso() })
        .where('id', '=', pkg.id)
        .execute();
      this.publish(pkg, 'failed', null, message, started);
      throw err;
    }
  }

  private async syncPackage(
    pkg: PackageRow,
  ): Promise<{ result: SyncResult; children: { pkg: PackageRow; result: ChildResult }[] }> {
    const { db, storage, config } = this.deps;
    const timeoutMs = config.gitTimeoutMs;
    const { dir, refs, analysis, defaultCommit } = await this.inspect(pkg);
    const monorepo = await db
      .selectFrom('monorepos')
      .select('paths')
      .where('package_id', '=', pkg.id)
      .executeTakeFirst();
    const readme = defaultCommit ? await findReadme(dir, defaultCommit, { timeoutMs }) : null;
    const root: Target = {
      pkg,
      isNew: false,
      path: '',
      candidates: analysis.candidates.map((c) => ({ ...c, subdir: '' })),
      skipped: analysis.skipped,
      existing: await listVersions(db, pkg.id),
      readme: readme?.content ?? null,
    };
    const children = monorepo
      ? await this.planChildren(pkg, dir, refs, JSON.parse(monorepo.paths) as string[])
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

    const now = nowIso();
    const results = new Map<Target, ChildResult>();
    const system: Ctx = { tenantId: pkg.tenant_id, actor: { kind: 'system', id: null } };
    await transact(this.deps, system, async (tx) => {
      const trx = tx.db;
      tx.accessChanged();
      for (const t of targets) {
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
          .where('id', '=', t.pkg.id)
          .execute();
        await rebuildPackageMetadata(trx, t.pkg.tenant_id, t.pkg.id);
      }
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

  /**
   * Finds the child packages of a monorepo: the folders matching `globs` that hold a composer.json
   * at any tag or branch, each read with one cat-file batch. A child is named by its composer.json;
   * a name already used by a package that is not this parent's child is skipped and reported.
   * Children linked earlier but gone from the repository are kept with no versions.
   */
  private async planChildren(
    parent: PackageRow,
    dir: string,
    refs: RepositoryRefs,
    globs: string[],
  ): Promise<{ targets: Target[]; skipped: SkippedRef[] }> {
    const { db, config } = this.deps;
    const timeoutMs = config.gitTimeoutMs;
    const commits = [...new Set([...refs.tags, ...refs.branches].map((r) => r.commit))];
    const foldersOf = new Map<string, Set<string>>();
    for (let i = 0; i < commits.length; i += TREE_CONCURRENCY) {
      const batch = commits.slice(i, i + TREE_CONCURRENCY);
      const lists = await Promise.all(
        batch.map((c) => listDirectories(dir, c, globs, { timeoutMs })),
      );
      batch.forEach((c, j) => foldersOf.set(c, new Set(lists[j])));
    }
    const subdirs = [...new Set([...foldersOf.values()].flatMap((s) => [...s]))]
      .filter((d) => d !== '')
      .sort();

    const skipped: SkippedRef[] = [];
    const found = new Map<string, { path: string; candidates: Placed[]; skipped: SkippedRef[] }>();
    for (const subdir of subdirs) {
      const has = (r: { commit: string }) => foldersOf.get(r.commit)?.has(subdir) ?? false;
      const analysis = await analyzeRefs(
        dir,
        null,
        { ...refs, tags: refs.tags.filter(has), branches: refs.branches.filter(has) },
        { subdir, timeoutMs },
      );
      skipped.push(
        ...analysis.skipped.map((s) => ({ ref: `${subdir}: ${s.ref}`, reason: s.reason })),
      );
      for (const c of analysis.candidates) {
        const name = String(c.composer.name).toLowerCase();
        if (!PACKAGE_NAME_RE.test(name) || name === parent.name) {
          skipped.push({
            ref: `${subdir}: ${c.isDev ? 'branch' : 'tag'} ${c.ref}`,
            reason:
              name === parent.name
                ? `"${name}" is the parent's own name`
                : `"${name}" is not a valid package name`,
          });
          continue;
        }
        const child = found.get(name) ?? { path: subdir, candidates: [], skipped: [] };
        found.set(name, child);
        const twin = child.candidates.find((o) => o.normalized === c.normalized);
        if (twin) {
          child.skipped.push({
            ref: `${subdir}: ${c.isDev ? 'branch' : 'tag'} ${c.ref}`,
            reason: `same version as ${twin.subdir}: ${twin.ref}`,
          });
          continue;
        }
        if (c.defaultBranch) child.path = subdir;
        child.candidates.push({ ...c, subdir });
      }
    }

    const linked = await db
      .selectFrom('monorepo_children')
      .innerJoin('packages', 'packages.id', 'monorepo_children.package_id')
      .selectAll('packages')
      .select(['monorepo_children.parent_id', 'monorepo_children.path'])
      .where('monorepo_children.tenant_id', '=', parent.tenant_id)
      .execute();
    const mine = new Map(linked.filter((r) => r.parent_id === parent.id).map((r) => [r.name, r]));
    const targets: Target[] = [];
    const now = nowIso();
    for (const [name, child] of [...found].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const own = mine.get(name);
      if (!own && (await findPackageByName(db, parent.tenant_id, name))) {
        skipped.push({
          ref: child.path,
          reason: `a package named "${name}" already exists and is not a child of ${parent.name}`,
        });
        continue;
      }
      const {
        parent_id: _parentId,
        path: _path,
        ...row
      } = own ?? {
        parent_id: parent.id,
        path: child.path,
        ...newChildRow(parent, name, now),
      };
      targets.push({
        pkg: row,
        isNew: !own,
        path: child.path,
        candidates: child.candidates,
        skipped: child.skipped,
        existing: own ? await listVersions(db, own.id) : [],
        readme: null,
      });
    }
    for (const [name, own] of mine) {
      if (found.has(name)) continue;
      const { parent_id: _parentId, path: oldPath, ...row } = own;
      targets.push({
        pkg: row,
        isNew: false,
        path: oldPath,
        candidates: [],
        skipped: [],
        existing: await listVersions(db, own.id),
        readme: null,
      });
    }
    return { targets, skipped };
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

function latestVersion(candidates: Candidate[]): string | null {
  const tags = candidates.filter((c) => !c.isDev);
  const stable = tags.filter((c) => parseStability(c.normalized) === 'stable');
  const pool = stable.length > 0 ? stable : tags;
  const best = pool.sort((a, b) => compareVersions(b.normalized, a.normalized))[0];
  return best?.version ?? null;
}

function describe(candidates: Candidate[]): string | null {
  const source =
    candidates.find((c) => c.defaultBranch) ??
    candidates.find((c) => c.version === latestVersion(candidates));
  const description = source?.composer.description;
  return typeof description === 'string' ? description : null;
}

/** The parent id of a monorepo child, or null. */
export async function monorepoParentOf(db: Db, packageId: string): Promise<string | null> {
  const row = await db
    .selectFrom('monorepo_children')
    .select('parent_id')
    .where('package_id', '=', packageId)
    .executeTakeFirst();
  return row?.parent_id ?? null;
}

function newChildRow(parent: PackageRow, name: string, now: string): PackageRow {
  return {
    id: newId(),
    tenant_id: parent.tenant_id,
    name,
    description: null,
    repository_url: parent.repository_url,
    repository_key: parent.repository_key,
    type: 'git',
    latest_version: null,
    default_branch: null,
    readme: null,
    synced_at: null,
    sync_status: 'running',
    sync_error: null,
    sync_skipped: '[]',
    abandoned: 0,
    created_at: now,
    updated_at: now,
  };
}

/** Inserts, updates and removes one package's version rows so they match its candidates. */
async function writeVersions(
  trx: Db,
  t: Target,
  built: Map<string, BuiltArchive>,
  now: string,
): Promise<{ added: string[]; removed: string[] }> {
  const byNormalized = new Map(t.existing.map((v) => [v.version_normalized, v]));
  const added: string[] = [];
  for (const c of t.candidates) {
    const previous = byNormalized.get(c.normalized);
    const archive = built.get(archiveKey(t.pkg.tenant_id, t.pkg.id, c.commit, c.subdir));
    const dist = archive
      ? { dist_key: archive.key, dist_shasum: archive.shasum, dist_size: archive.size }
      : {
          dist_key: previous!.dist_key,
          dist_shasum: previous!.dist_shasum,
          dist_size: previous!.dist_size,
        };
    const metadata = JSON.stringify(
      buildVersionEntry({
        name: t.pkg.name,
        version: c.version,
        normalized: c.normalized,
        reference: c.commit,
        shasum: dist.dist_shasum,
        time: c.time,
        defaultBranch: c.defaultBranch,
        composer: c.composer,
      }),
    );
    const values = {
      version: c.version,
      reference: c.commit,
      released_at: c.time,
      metadata,
      ...dist,
      updated_at: now,
    };
    if (previous) {
      if (
        previous.metadata !== metadata ||
        previous.reference !== c.commit ||
        previous.dist_key !== dist.dist_key
      ) {
        await trx.updateTable('versions').set(values).where('id', '=', previous.id).execute();
      }
    } else {
      added.push(c.version);
      await trx
        .insertInto('versions')
        .values({
          id: newId(),
          tenant_id: t.pkg.tenant_id,
          package_id: t.pkg.id,
          version_normalized: c.normalized,
          is_dev: c.isDev ? 1 : 0,
          yanked: 0,
          deprecated: 0,
          created_at: now,
          ...values,
        })
        .execute();
    }
  }
  const keep = new Set(t.candidates.map((c) => c.normalized));
  const removed = t.existing.filter((v) => !keep.has(v.version_normalized));
  if (removed.length > 0) {
    await trx
      .deleteFrom('versions')
      .where(
        'id',
        'in',
        removed.map((v) => v.id),
      )
      .execute();
  }
  return { added, removed: removed.map((v) => v.version) };
}
