import { nowIso } from '../../context.js';
import { newId } from '../../infra/crypto.js';
import type { Db, Dialect } from '../../infra/db/connection.js';
import type { WebhookResult } from '../webhooks/types.js';
import * as store from './store.js';
import type { InstallationRow } from './store.js';
import { isUniqueViolation } from '../../infra/db/errors.js';

/**
 * An installation or installation_repositories event: keeps the installation list current.
 * Rows arrive unclaimed (tenant_id null) until a registry claims them.
 */
export async function applyInstallationEvent(
  db: Db,
  dialect: Dialect,
  event: string,
  payload: unknown,
): Promise<WebhookResult> {
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
    await upsert(db, existing, hostId, patch, now);
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
  if (existing) {
    // Read, merge and write under a row lock: two deliveries at once must not lose a repository.
    await db.transaction().execute(async (trx) => {
      const locked = await store.findByHostId(trx, hostId, dialect === 'postgres');
      await store.updateByHostId(trx, hostId, patchFor(locked ? store.repositoriesOf(locked) : []));
    });
  } else {
    await upsert(db, existing, hostId, patchFor([]), now);
  }
  return {
    status: 'processed',
    message: `installation ${hostId}: ${added.length} repositories added, ${removed.size} removed`,
  };
}

async function upsert(
  db: Db,
  existing: InstallationRow | undefined,
  hostId: string,
  patch: store.InstallationPatch,
  now: string,
): Promise<void> {
  if (existing) {
    await store.updateByHostId(db, hostId, patch);
    return;
  }
  try {
    await store.insertInstallation(db, {
      id: newId(),
      tenant_id: null,
      host_installation_id: hostId,
      account_login: patch.account_login ?? '',
      account_type: patch.account_type ?? 'Organization',
      repository_selection: patch.repository_selection ?? 'selected',
      status: patch.status ?? 'active',
      repositories: patch.repositories ?? '[]',
      created_at: now,
      updated_at: now,
      claimed_at: null,
    });
  } catch (err) {
    // A concurrent delivery (or claim) inserted it first: apply the change to that row.
    if (!isUniqueViolation(err)) throw err;
    await store.updateByHostId(db, hostId, patch);
  }
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
