import type { Ctx } from '../../context.js';
import type { TaskRow } from './store.js';

/**
 * Package syncs, as the tasks area needs them: the packages area owns the rule (which package
 * may sync, its dedupe key and pending state) and hands it in at startup, so tasks never reads
 * packages.
 */
export interface PackageSyncs {
  /** POST /tasks with type `packages.sync`: validates `payload.package` and queues its sync. */
  fromTaskPayload(ctx: Ctx, payload: Record<string, unknown>): Promise<TaskRow>;
  /** The `packages.sync_all` task: queues a sync of every package with a repository. */
  syncAll(tenantId: string, signal?: AbortSignal): Promise<{ packages: number; queued: number }>;
}
