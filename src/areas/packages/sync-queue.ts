import type { Ctx, Deps } from '../../context.js';
import { invalid } from '../../errors.js';
import type { EnqueueOptions, TaskService } from '../tasks/service.js';
import type { PackageSyncs } from '../tasks/ports.js';
import { SYNC_TASK } from '../tasks/schema.js';
import type { TaskRow } from '../tasks/store.js';
import { systemCtx } from '../tasks/system-ctx.js';
import { transact } from '../../unit-of-work.js';
import { PACKAGE_NAME_RE } from './schema.js';
import type { PackageRow } from './store.js';
import { findPackageByName } from './store.js';
import { assertSyncableAlone } from './sync-rule.js';

type Tasks = Pick<TaskService, 'enqueueDeduped'>;

/**
 * Queues a package's sync: the one rule for its task, dedupe key (`sync:<package id>`) and the
 * package's `pending` state, written in one unit. Used by POST /packages/{name}/sync (and the
 * push webhooks, monorepo and host app through it), POST /tasks and the sync-all task.
 */
export function queuePackageSync(
  deps: Deps,
  tasks: Tasks,
  pkg: PackageRow,
  auditAs: Ctx | null,
  options: EnqueueOptions = {},
): Promise<{ row: TaskRow; created: boolean }> {
  return transact(deps, auditAs ?? systemCtx(pkg.tenant_id), async (tx) => {
    const queued = await tasks.enqueueDeduped(
      pkg.tenant_id,
      SYNC_TASK,
      { package_id: pkg.id, package: pkg.name },
      `sync:${pkg.id}`,
      auditAs,
      options,
      tx.db,
    );
    if (queued.row.status === 'pending') {
      await tx.db
        .updateTable('packages')
        .set({ sync_status: 'pending' })
        .where('tenant_id', '=', pkg.tenant_id)
        .where('id', '=', pkg.id)
        .where('sync_status', '!=', 'running')
        .execute();
    }
    return queued;
  });
}

/** What the tasks area asks of packages (its PackageSyncs port), with the rule above. */
export function packageSyncs(deps: Deps, tasks: Tasks): PackageSyncs {
  return {
    /** POST /tasks `packages.sync`: the payload names a package that may sync on its own. */
    async fromTaskPayload(ctx, payload) {
      const name = payload.package;
      if (typeof name !== 'string' || name === '') {
        throw invalid('payload.package', 'is required (vendor/name)');
      }
      if (!PACKAGE_NAME_RE.test(name.toLowerCase())) {
        throw invalid('payload.package', 'must be a package name (vendor/name)');
      }
      const pkg = await findPackageByName(deps.db, ctx.tenantId, name.toLowerCase());
      if (!pkg) throw invalid('payload.package', `unknown package ${name}`);
      if (pkg.type === 'artifact') {
        throw invalid('payload.package', 'artifact packages have no repository to sync');
      }
      await assertSyncableAlone(deps.db, pkg);
      return (await queuePackageSync(deps, tasks, pkg, ctx)).row;
    },

    /** The `packages.sync_all` handler: a deduplicated sync per package with a repository. */
    async syncAll(tenantId, signal) {
      const packages = await deps.db
        .selectFrom('packages')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .where('type', '!=', 'artifact')
        .orderBy('name', 'asc')
        .execute();
      let queued = 0;
      for (const pkg of packages) {
        signal?.throwIfAborted();
        if ((await queuePackageSync(deps, tasks, pkg, null)).created) queued += 1;
      }
      return { packages: packages.length, queued };
    },
  };
}
