import type { Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import type { Db } from '../../infra/db/connection.js';
import type { PackageService } from '../packages/service.js';
import { findPackageById, findPackagesByRepositoryKeys } from '../packages/catalog.js';
import { monorepoParentOf } from '../sync/service.js';
import { repositoryKeys } from '../../infra/git/repository-url.js';
import type { WebhookResult } from './types.js';

/** What a push needs: the packages to read, and the one operation that queues their sync. */
export interface PushDeps {
  db: Db;
  packages: Pick<PackageService, 'requestSync'>;
}

/** The packages of the tenant whose repository is one of `urls` (normalised, any URL form). */
async function packagesForRepository(
  db: Db,
  ctx: Ctx,
  urls: readonly unknown[],
): Promise<{ id: string; name: string }[]> {
  const wanted = repositoryKeys(urls);
  if (wanted.length === 0) return [];
  return findPackagesByRepositoryKeys(db, ctx.tenantId, wanted);
}

/**
 * What a push, tag or release does: finds the packages whose repository matches one of the
 * payload's `urls` and queues their sync exactly like `POST /packages/{name}/sync` (a sync
 * already pending or running is reused). A monorepo child is synced by its parent, queued once.
 * Shared by the git-host routes and the GitHub App's route.
 */
export async function queueRepositorySyncs(
  { db, packages }: PushDeps,
  ctx: Ctx,
  urls: readonly unknown[],
): Promise<WebhookResult> {
  const matched = await packagesForRepository(db, ctx, urls);
  if (matched.length === 0) {
    return { status: 'ignored', message: 'no package uses this repository' };
  }
  const toSync = new Map<string, string>();
  const involved = new Set(matched.map((p) => p.id));
  for (const pkg of matched) {
    const parentId = await monorepoParentOf(db, ctx.tenantId, pkg.id);
    if (parentId === null) {
      toSync.set(pkg.id, pkg.name);
      continue;
    }
    const parent = await findPackageById(db, ctx.tenantId, parentId);
    if (parent) {
      toSync.set(parent.id, parent.name);
      involved.add(parent.id);
    }
  }
  const names: string[] = [];
  for (const [id, name] of [...toSync].sort((a, b) => a[1].localeCompare(b[1]))) {
    try {
      await packages.requestSync(ctx, name, { afterRunning: true });
      names.push(name);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      // Deleted since it was matched: not linked to the delivery (its row is gone).
      if (err.code === 'NOT_FOUND') involved.delete(id);
      else if (err.code !== 'CONFLICT') throw err;
    }
  }
  if (names.length === 0) {
    return { status: 'ignored', packageIds: [...involved], message: 'no package could be synced' };
  }
  const listed =
    names.length > 10
      ? `${names.slice(0, 10).join(', ')} and ${names.length - 10} more`
      : names.join(', ');
  return { status: 'queued', packageIds: [...involved], message: `sync queued for ${listed}` };
}
