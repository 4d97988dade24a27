import type { Deps } from '../../context.js';
import { nowIso } from '../../context.js';
import { findComposerFolders } from '../../infra/git/folders.js';
import type { ObjectReader, RepositoryRefs } from '../../infra/git/index.js';
import { PACKAGE_NAME_RE } from '../packages/schema.js';
import { findPackageByName, listVersions } from '../packages/catalog.js';
import type { PackageRow } from '../packages/catalog.js';
import { analyzeRefs } from './analyze.js';
import type { SkippedRef } from './analyze.js';
import type { Placed, Target } from './types.js';
import { newChildRow } from './write-versions.js';

/**
 * Finds the child packages of a monorepo: the folders matching `globs` that hold a composer.json
 * at any tag or branch, all read through the sync's one `git cat-file` (`reader`): each tree once
 * for every commit that has it, only where a glob can reach. A child is named by its composer.json;
 * a name already used by a package that is not this parent's child is skipped and reported.
 * Children linked earlier but gone from the repository are kept with no versions.
 */
export async function planChildren(
  deps: Deps,
  parent: PackageRow,
  dir: string,
  refs: RepositoryRefs,
  globs: string[],
  reader: ObjectReader,
): Promise<{ targets: Target[]; skipped: SkippedRef[] }> {
  const { db, config } = deps;
  const timeoutMs = config.gitTimeoutMs;
  const commits = [...new Set([...refs.tags, ...refs.branches].map((r) => r.commit))];
  // Refs listed from the remote may name trees or blobs: only commits have folders.
  const objects = await Promise.all(commits.map((c) => reader.read(c)));
  const real = commits.filter((_, i) => objects[i]?.type === 'commit');
  const listed = await findComposerFolders(reader, real, globs);
  const foldersOf = new Map([...listed].map(([c, list]) => [c, new Set(list)]));
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
      { subdir, timeoutMs, reader },
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
      existing: own ? await listVersions(db, own) : [],
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
      existing: await listVersions(db, own),
      readme: null,
    });
  }
  return { targets, skipped };
}
