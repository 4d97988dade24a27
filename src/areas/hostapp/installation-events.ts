import type { Ctx } from '../../context.js';
import { nowIso } from '../../context.js';
import { newId } from '../../infra/crypto.js';
import type { Dialect } from '../../infra/db/connection.js';
import { transact } from '../../unit-of-work.js';
import type { UnitOfWorkDeps } from '../../unit-of-work.js';
import type { WebhookResult } from '../webhooks/types.js';
import * as store from './store.js';
import type { InstallationRow } from './store.js';
import { isUniqueViolation } from '../../infra/db/errors.js';

/** The database and where a unit of work's effects go. */
export type InstallationDeps = UnitOfWorkDeps & { dialect: Dialect };

/**
 * An installation or installation_repositories event: keeps the installation list current.
 *
 * `claimant` is the registry that claims an installation as it arrives: on a server with one
 * registry (every edition but Cloud) there is nobody else it could belong to, so a row the
 * webhook records is claimed at once, audited as `hostapp.claim` by the webhook. In Cloud it is
 * null and rows arrive unclaimed (tenant_id null) until a registry claims them.
 */
export async function applyInstallationEvent(
  deps: InstallationDeps,
  ctx: Ctx,
  event: string,
  payload: unknown,
  claimant: Ctx | null = null,
): Promise<WebhookResult> {
  const { db, dialect } = deps;
  const body = (payload ?? {}) as Record<string, unknown>;
  const action = typeof body.action === 'string' ? body.action : '';
  const installation = installationOf(body.installation);
  if (!installation) return { status: 'ignored', message: 'no installation in the payload' };
  const hostId = installation.id;
  const now = nowIso();
  const existing = await store.findByHostId(db, hostId);

  if (event === 'installation') {
    const status =
      action === 'deleted'
        ? 'deleted'
        : action === 'suspend'
          ? 'suspended'
          : action === 'unsuspend' || action === 'created'
            ? 'active'
            : null;
    if (status === null && action !== 'new_permissions_accepted') {
      return {
        status: 'ignored',
        message: `installation action ${action || '(none)'} not handled`,
      };
    }
    const listed = Array.isArray(body.repositories) ? fullNames(body.repositories) : null;
    const patch: store.InstallationPatch = {
      ...accountOf(installation),
      repository_selection: installation.selection,
      ...(status ? { status } : {}),
      ...(listed && action === 'created' ? { repositories: JSON.stringify(listed) } : {}),
      updated_at: now,
    };
    // `created` announces a new installation: claim it even if an earlier delivery (out of
    // order) recorded it. Other actions never claim a row that is there unclaimed: it was
    // detached by an admin, or recorded before this server claimed on arrival.
    const claimExisting = action === 'created' ? claimant : null;
    await upsert(deps, existing, hostId, patch, now, claimant, claimExisting);
    return {
      status: 'processed',
      message: `installation ${hostId} (${installation.login}) ${action}`,
    };
  }

  // installation_repositories: added / removed
  if (action !== 'added' && action !== 'removed') {
    return {
      status: 'ignored',
      message: `installation_repositories action ${action} not handled`,
    };
  }
  const added = fullNames(body.repositories_added);
  const removed = new Set(fullNames(body.repositories_removed).map((n) => n.toLowerCase()));
  const selection =
    typeof body.repository_selection === 'string'
      ? body.repository_selection
      : installation.selection;
  const patchFor = (current: string[]): store.InstallationPatch => ({
    ...accountOf(installation),
    repository_selection: selection,
    repositories: JSON.stringify(
      [...current, ...added.filter((n) => !current.includes(n))].filter(
        (n) => !removed.has(n.toLowerCase()),
      ),
    ),
    updated_at: now,
  });
  // A first sight of the installation inserts it; when a concurrent delivery inserted it first
  // (unique violation), merge into that row like any other.
  const inserted = !existing && (await tryInsert(deps, hostId, patchFor([]), now, claimant));
  if (!inserted) {
    // Read, merge and write under a row lock: two deliveries at once must not lose a repository.
    await transact(deps, ctx, async ({ db: trx }) => {
      const locked = await store.findByHostId(trx, hostId, dialect === 'postgres');
      await store.updateByHostId(trx, hostId, patchFor(locked ? store.repositoriesOf(locked) : []));
    });
  }
  return {
    status: 'processed',
    message: `installation ${hostId}: ${added.length} repositories added, ${removed.size} removed`,
  };
}

/**
 * Applies `patch` to the installation, inserting it when it is new (claimed by `claimant`, if
 * any). An unclaimed existing row is claimed by `claimExisting`, if any.
 */
async function upsert(
  deps: InstallationDeps,
  existing: InstallationRow | undefined,
  hostId: string,
  patch: store.InstallationPatch,
  now: string,
  claimant: Ctx | null,
  claimExisting: Ctx | null,
): Promise<void> {
  let row = existing;
  if (!row) {
    if (await tryInsert(deps, hostId, patch, now, claimant)) return;
    // A concurrent delivery (or claim) inserted it first: apply the change to that row.
    row = await store.findByHostId(deps.db, hostId);
  }
  if (row && row.tenant_id === null && claimExisting && patch.status !== 'deleted') {
    await claimUnclaimed(deps, row, hostId, patch, now, claimExisting);
    return;
  }
  await store.updateByHostId(deps.db, hostId, patch);
}

/**
 * Inserts a new installation, claimed by `claimant` (with its audit entry, in one transaction)
 * unless it is null or the installation is deleted. False when the row exists already (unique
 * violation: a concurrent delivery or claim inserted it first); nothing was written then.
 */
async function tryInsert(
  deps: InstallationDeps,
  hostId: string,
  patch: store.InstallationPatch,
  now: string,
  claimant: Ctx | null,
): Promise<boolean> {
  const owner = patch.status === 'deleted' ? null : claimant;
  const row = store.newInstallationRow(newId(), hostId, patch, now, owner?.tenantId ?? null);
  try {
    if (!owner) {
      await store.insertInstallation(deps.db, row);
      return true;
    }
    // The insert and its audit entry commit together; a unique violation rolls both back (and
    // on PostgreSQL the failed transaction is over before the caller touches the row again).
    await transact(deps, owner, async (tx) => {
      await store.insertInstallation(tx.db, row);
      await tx.audit(store.claimAuditEntry(row));
    });
    return true;
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    return false;
  }
}

/** Claims an unclaimed row for `owner`; when someone claimed it meanwhile, only updates it. */
async function claimUnclaimed(
  deps: InstallationDeps,
  row: InstallationRow,
  hostId: string,
  patch: store.InstallationPatch,
  now: string,
  owner: Ctx,
): Promise<void> {
  await transact(deps, owner, async (tx) => {
    const trx = tx.db;
    // claimRow only takes a row that is still unclaimed (tenant_id null): atomic on both dialects.
    const claimed = await store.claimRow(trx, row.id, owner.tenantId, {
      ...patch,
      claimed_at: now,
    });
    if (claimed === 0) {
      await store.updateByHostId(trx, hostId, patch);
      return;
    }
    await tx.audit(store.claimAuditEntry({ ...row, ...patch }));
  });
}

function installationOf(
  value: unknown,
): { id: string; login: string; type: string; selection: string } | null {
  const inst = value as {
    id?: unknown;
    account?: { login?: unknown; slug?: unknown; type?: unknown } | null;
    repository_selection?: unknown;
  } | null;
  if (!inst || (typeof inst.id !== 'number' && typeof inst.id !== 'string')) return null;
  const id = String(inst.id);
  if (!/^[1-9][0-9]{0,19}$/.test(id)) return null;
  const login = inst.account?.login ?? inst.account?.slug;
  return {
    id,
    login: typeof login === 'string' ? login : '',
    type: typeof inst.account?.type === 'string' ? inst.account.type : 'Organization',
    selection:
      typeof inst.repository_selection === 'string' ? inst.repository_selection : 'selected',
  };
}

/** The account fields to write: a payload without an account login leaves them as they are. */
function accountOf(installation: { login: string; type: string }) {
  return installation.login
    ? { account_login: installation.login, account_type: installation.type }
    : {};
}

function fullNames(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list
    .map((r) => (r as { full_name?: unknown } | null)?.full_name)
    .filter((n): n is string => typeof n === 'string' && n.includes('/'));
}
