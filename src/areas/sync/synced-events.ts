import type { Ctx, Deps } from '../../context.js';
import { nowIso } from '../../context.js';
import { failureWillBeRetried } from '../../infra/task-attempt.js';
import { transact } from '../../unit-of-work.js';
import type { Tx } from '../../unit-of-work.js';
import type { PackageRow } from '../packages/catalog.js';

/**
 * The outbox's events of one synced package, in the sync's transaction
 * (docs/webhooks-outgoing.md): `package.created` for a monorepo child found now,
 * `version.published` per new version, then `package.synced`.
 */
export function emitSynced(
  tx: Tx,
  name: string,
  result: { versions_added: string[]; versions_removed: string[] },
  isNew: boolean,
): void {
  if (isNew) tx.emit('package.created', { package: name });
  for (const version of result.versions_added) {
    tx.emit('version.published', { package: name, version });
  }
  tx.emit('package.synced', {
    package: name,
    versions_added: result.versions_added,
    versions_removed: result.versions_removed,
    status: 'ok',
  });
}

/**
 * A failed sync attempt: the package's status and error, and its `package.synced` event, in one
 * unit. `will_retry` tells whether the task tries this sync again (so it is not the sync's
 * outcome yet; docs/notifications.md counts only outcomes).
 */
export async function recordSyncFailure(
  deps: Deps,
  pkg: PackageRow,
  message: string,
): Promise<void> {
  const system: Ctx = { tenantId: pkg.tenant_id, actor: { kind: 'system', id: null } };
  await transact(deps, system, async (tx) => {
    await tx.db
      .updateTable('packages')
      .set({ sync_status: 'failed', sync_error: message, updated_at: nowIso() })
      .where('tenant_id', '=', pkg.tenant_id)
      .where('id', '=', pkg.id)
      .execute();
    tx.emit('package.synced', {
      package: pkg.name,
      versions_added: [],
      versions_removed: [],
      status: 'failed',
      error: message,
      will_retry: failureWillBeRetried(),
    });
  });
}
