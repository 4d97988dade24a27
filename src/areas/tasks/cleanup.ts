import type { Deps } from '../../context.js';
import { transact } from '../../unit-of-work.js';
import * as store from './store.js';
import { systemCtx } from './system-ctx.js';

/** Finished tasks are kept this long, then the cleanup task removes them. */
export const FINISHED_TASK_RETENTION_DAYS = 30;

/** How old an unreferenced archive must be before cleanup deletes it. */
const ORPHAN_ARCHIVE_GRACE_MS = 60 * 60 * 1000;

export interface CleanupResult {
  expired_tokens: number;
  old_tasks: number;
  old_webhook_deliveries: number;
  orphan_archives: number;
}

/**
 * The `cleanup` handler: removes customer tokens past their expiry, tasks finished more than
 * FINISHED_TASK_RETENTION_DAYS ago (webhook deliveries and their replay receipts too), and
 * archives no version refers to any more.
 */
export async function cleanupTenant(
  deps: Deps,
  tenantId: string,
  /** The task's: each step starts only while the worker still holds the task. */
  signal?: AbortSignal,
): Promise<CleanupResult> {
  const now = new Date();
  const before = new Date(now.getTime() - FINISHED_TASK_RETENTION_DAYS * 86_400_000);
  const expired_tokens = await store.deleteExpiredCustomerTokens(
    deps.db,
    tenantId,
    now.toISOString(),
  );
  signal?.throwIfAborted();
  const old_tasks = await store.deleteFinishedTasks(deps.db, tenantId, before.toISOString());
  signal?.throwIfAborted();
  const old_webhook_deliveries = await transact(deps, systemCtx(tenantId), ({ db }) =>
    store.deleteOldWebhookRecords(db, tenantId, before.toISOString(), now.toISOString()),
  );
  const orphan_archives = await deleteOrphanArchives(deps, tenantId, now, signal);
  return { expired_tokens, old_tasks, old_webhook_deliveries, orphan_archives };
}

/**
 * Archives of versions that were deleted (tags removed, packages deleted). Only files older
 * than an hour go: a running sync writes its archives before the versions that use them.
 */
async function deleteOrphanArchives(
  deps: Deps,
  tenantId: string,
  now: Date,
  signal?: AbortSignal,
): Promise<number> {
  const used = new Set(
    (
      await deps.db
        .selectFrom('versions')
        .select('dist_key')
        .where('tenant_id', '=', tenantId)
        .execute()
    ).map((r) => r.dist_key),
  );
  const cutoff = now.getTime() - ORPHAN_ARCHIVE_GRACE_MS;
  let deleted = 0;
  for await (const object of deps.storage.list(`${tenantId}/`)) {
    signal?.throwIfAborted();
    if (used.has(object.key) || object.modifiedAt.getTime() > cutoff) continue;
    await deps.storage.delete(object.key);
    deleted += 1;
  }
  return deleted;
}
