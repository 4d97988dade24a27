import path from 'node:path';
import type { Deps } from '../../context.js';
import { nowIso } from '../../context.js';
import { newId } from '../../infra/crypto.js';
import { findReadme, listRefs, mirrorRepository } from '../../infra/git/index.js';
import { buildVersionEntry, rebuildPackageMetadata } from '../../composer/metadata.js';
import { compareVersions, parseStability } from '../../composer/semver/index.js';
import type { PackageRow, VersionRow } from '../packages/store.js';
import { analyzeRefs } from './analyze.js';
import type { Analysis, Candidate, SkippedRef } from './analyze.js';
import { archiveKey, buildArchives } from './archives.js';

export interface SyncResult {
  versions: number;
  versions_added: string[];
  versions_removed: string[];
  skipped: SkippedRef[];
}

/** Mirrors a package's repository and turns its tags and branches into installable versions. */
export class SyncService {
  constructor(private readonly deps: Deps) {}

  mirrorDir(pkg: Pick<PackageRow, 'tenant_id' | 'id'>): string {
    return path.join(this.deps.config.dataDir, 'repos', pkg.tenant_id, `${pkg.id}.git`);
  }

  /** Fetches the repository and reads what each ref would become, changing nothing stored. */
  async inspect(
    pkg: PackageRow,
  ): Promise<{ dir: string; analysis: Analysis; defaultCommit: string | null }> {
    const timeoutMs = this.deps.config.gitTimeoutMs;
    const dir = this.mirrorDir(pkg);
    await mirrorRepository(pkg.repository_url, dir, { timeoutMs });
    const refs = await listRefs(dir, { timeoutMs });
    const analysis = await analyzeRefs(dir, pkg.name, refs, { timeoutMs });
    const defaultCommit = refs.branches.find((b) => b.name === refs.defaultBranch)?.commit ?? null;
    return { dir, analysis, defaultCommit };
  }

  /**
   * One full sync. A failure before the final transaction leaves every stored version as it was
   * and records the error on the package.
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
    await db
      .updateTable('packages')
      .set({ sync_status: 'running' })
      .where('id', '=', pkg.id)
      .execute();
    try {
      const result = await this.syncPackage(pkg);
      await this.deps.generations.bump(pkg.tenant_id);
      this.publish(pkg, 'ok', result, null);
      return result;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await db
        .updateTable('packages')
        .set({ sync_status: 'failed', sync_error: message, updated_at: nowIso() })
        .where('id', '=', pkg.id)
        .execute();
      this.publish(pkg, 'failed', null, message);
      throw err;
    }
  }

  private async syncPackage(pkg: PackageRow): Promise<SyncResult> {
    const { db, storage, config } = this.deps;
    const { dir, analysis, defaultCommit } = await this.inspect(pkg);
    const existing = await db
      .selectFrom('versions')
      .selectAll()
      .where('package_id', '=', pkg.id)
      .execute();
    const byNormalized = new Map(existing.map((v) => [v.version_normalized, v]));

    const needed = analysis.candidates.filter(
      (c) => byNormalized.get(c.normalized)?.reference !== c.commit,
    );
    const jobs = needed.map((c) => ({
      key: archiveKey(pkg.tenant_id, pkg.id, c.commit),
      commit: c.commit,
    }));
    const built = await buildArchives(storage, dir, jobs, { timeoutMs: config.gitTimeoutMs });
    const readme = defaultCommit
      ? await findReadme(dir, defaultCommit, { timeoutMs: config.gitTimeoutMs })
      : null;

    if (analysis.candidates.length === 0) {
      const noComposer =
        analysis.skipped.length === 0 || analysis.skipped.every((s) => s.reason.startsWith('no '));
      throw new Error(
        noComposer
          ? 'No tag or branch of the repository has a composer.json'
          : `No tag or branch could become a version: ${analysis.skipped
              .map((s) => `${s.ref}: ${s.reason}`)
              .slice(0, 5)
              .join('; ')}`,
      );
    }

    const now = nowIso();
    const added: string[] = [];
    const keep = new Set(analysis.candidates.map((c) => c.normalized));
    const removed = existing.filter((v) => !keep.has(v.version_normalized));
    await db.transaction().execute(async (trx) => {
      for (const c of analysis.candidates) {
        const previous = byNormalized.get(c.normalized);
        const archive = built.get(archiveKey(pkg.tenant_id, pkg.id, c.commit));
        const dist = archive
          ? { dist_key: archive.key, dist_shasum: archive.shasum, dist_size: archive.size }
          : {
              dist_key: previous!.dist_key,
              dist_shasum: previous!.dist_shasum,
              dist_size: previous!.dist_size,
            };
        const metadata = JSON.stringify(
          buildVersionEntry({
            name: pkg.name,
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
          if (previous.metadata !== metadata || previous.reference !== c.commit) {
            await trx.updateTable('versions').set(values).where('id', '=', previous.id).execute();
          }
        } else {
          added.push(c.version);
          await trx
            .insertInto('versions')
            .values({
              id: newId(),
              tenant_id: pkg.tenant_id,
              package_id: pkg.id,
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
      await trx
        .updateTable('packages')
        .set({
          description: describe(analysis.candidates),
          latest_version: latestVersion(analysis.candidates),
          default_branch: analysis.candidates.find((c) => c.defaultBranch)?.ref ?? null,
          readme: readme?.content ?? null,
          synced_at: now,
          sync_status: 'ok',
          sync_error: null,
          sync_skipped: JSON.stringify(analysis.skipped),
          abandoned: analysis.candidates.some((c) => c.defaultBranch && c.composer.abandoned)
            ? 1
            : 0,
          updated_at: now,
        })
        .where('id', '=', pkg.id)
        .execute();
      await rebuildPackageMetadata(trx, pkg.tenant_id, pkg.id);
    });
    return {
      versions: analysis.candidates.length,
      versions_added: added,
      versions_removed: removed.map((v: VersionRow) => v.version),
      skipped: analysis.skipped,
    };
  }

  private publish(
    pkg: PackageRow,
    status: 'ok' | 'failed',
    result: SyncResult | null,
    error: string | null,
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
