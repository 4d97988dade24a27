import type { Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import type { Db } from '../../infra/db/connection.js';
import type { PackageService } from '../packages/service.js';
import { PACKAGE_NAME_RE } from '../packages/schema.js';
import type { GitHubAppClient, GitHubRepository } from './github-api.js';
import type { InstallationRow } from './store.js';

export interface SyncResult {
  added: string[];
  updated: string[];
  skipped: { repository: string; reason: string }[];
}

/** The part of PackageService an import uses (packages are added through the ordinary path). */
export type Packages = Pick<PackageService, 'add' | 'requestSync'>;

/**
 * Adds a package (type github) for each repository whose default branch has a composer.json
 * with a valid name, through the ordinary add path; a package of that name already here gets
 * its sync queued instead. Everything else is reported as skipped, with the reason.
 */
export async function importRepositories(
  ctx: Ctx,
  db: Db,
  api: GitHubAppClient,
  packages: Packages,
  row: InstallationRow,
  repos: GitHubRepository[],
  /** The task's: a stop between repositories leaves the ones imported so far. */
  signal?: AbortSignal,
): Promise<SyncResult> {
  const result: SyncResult = { added: [], updated: [], skipped: [] };
  const seen = new Map<string, string>();
  for (const repo of repos) {
    signal?.throwIfAborted();
    const skip = (reason: string) => result.skipped.push({ repository: repo.full_name, reason });
    if (!repo.default_branch) {
      skip('the repository is empty (no default branch)');
      continue;
    }
    const text = await api.composerJson(
      row.host_installation_id,
      repo.full_name,
      repo.default_branch,
    );
    if (text === null) {
      skip(`no composer.json on the default branch ${repo.default_branch}`);
      continue;
    }
    const name = composerNameOf(text);
    if ('problem' in name) {
      skip(name.problem);
      continue;
    }
    const other = seen.get(name.name);
    if (other) {
      skip(`${name.name} is also the name in ${other}`);
      continue;
    }
    seen.set(name.name, repo.full_name);
    try {
      const exists = await db
        .selectFrom('packages')
        .select('id')
        .where('tenant_id', '=', ctx.tenantId)
        .where('name', '=', name.name)
        .executeTakeFirst();
      if (exists) {
        await packages.requestSync(ctx, name.name, { afterRunning: true });
        result.updated.push(name.name);
      } else {
        await packages.add(ctx, {
          name: name.name,
          repository_url: repo.clone_url,
          type: 'github',
        });
        result.added.push(name.name);
      }
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      skip(`${name.name}: ${err.message}`);
    }
  }
  return result;
}

/** The package name of a composer.json text, or why it cannot become a package. */
function composerNameOf(text: string): { name: string } | { problem: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { problem: 'composer.json is not valid JSON' };
  }
  const raw = (data as { name?: unknown } | null)?.name;
  if (typeof raw !== 'string' || raw.trim() === '') {
    return { problem: 'composer.json has no name' };
  }
  const name = raw.trim().toLowerCase();
  if (!PACKAGE_NAME_RE.test(name)) {
    return { problem: `composer.json name "${raw}" is not a valid package name (vendor/name)` };
  }
  return { name };
}
