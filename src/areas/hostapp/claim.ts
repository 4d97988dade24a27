import type { Ctx, Deps } from '../../context.js';
import { nowIso } from '../../context.js';
import { AppError, conflict, notFound } from '../../errors.js';
import { newId } from '../../infra/crypto.js';
import { isUniqueViolation } from '../../infra/db/errors.js';
import { transact } from '../../unit-of-work.js';
import type { GitHubAppClient } from './github-api.js';
import * as store from './store.js';
import type { InstallationRow } from './store.js';

/**
 * Attaches an installation of the app to this tenant after GitHub confirmed it (app JWT).
 * `created` is false when this tenant had claimed it already; another tenant's is a conflict.
 */
export async function claimInstallation(
  deps: Deps,
  api: GitHubAppClient,
  ctx: Ctx,
  installationId: string | number,
  /** The GitHub user who proved managing it, for the audit entry (null: no proof asked). */
  provedBy: string | null = null,
): Promise<{ id: string; created: boolean }> {
  const db = deps.db;
  const hostId = canonicalHostId(String(installationId));
  const remote = await api.installation(hostId);
  if (!remote) throw notFound(`Installation ${hostId} of this GitHub App`);
  const existing = await store.findByHostId(db, hostId);
  if (existing?.tenant_id && existing.tenant_id !== ctx.tenantId) {
    throw conflict(`Installation ${hostId} is already claimed by another registry`);
  }
  const status = remote.suspended_at ? 'suspended' : 'active';
  // The repository list decides which repositories lend credentials: read it now.
  const repositories =
    status === 'active' ? (await api.repositories(hostId)).map((r) => r.full_name) : null;
  const now = nowIso();
  const patch: store.InstallationPatch = {
    account_login: remote.account?.login ?? existing?.account_login ?? '',
    account_type: remote.account?.type ?? existing?.account_type ?? 'Organization',
    repository_selection: remote.repository_selection,
    status,
    ...(repositories ? { repositories: JSON.stringify(repositories) } : {}),
    updated_at: now,
  };
  if (existing?.tenant_id === ctx.tenantId) {
    await store.updateByHostId(db, hostId, patch);
    return { id: existing.id, created: false };
  }
  const id = existing?.id ?? newId();
  try {
    await claimInTransaction(deps, ctx, id, hostId, existing, patch, now, provedBy);
  } catch (err) {
    // Another claim, or (outside Cloud) the installation webhook claiming on arrival, got
    // there first: when that was for this tenant the installation is ours, as a re-claim.
    if (!(err instanceof AppError && err.code === 'CONFLICT')) throw err;
    const current = await store.findByHostId(db, hostId);
    if (current?.tenant_id !== ctx.tenantId) throw err;
    await store.updateByHostId(db, hostId, patch);
    return { id: current.id, created: false };
  }
  return { id, created: true };
}

/** Inserts (when new) and claims the installation with its audit entry; CONFLICT if taken. */
async function claimInTransaction(
  deps: Deps,
  ctx: Ctx,
  id: string,
  hostId: string,
  existing: InstallationRow | undefined,
  patch: store.InstallationPatch,
  now: string,
  provedBy: string | null,
): Promise<void> {
  const meanwhile = () => conflict(`Installation ${hostId} was claimed meanwhile`);
  await transact(deps, ctx, async (tx) => {
    const trx = tx.db;
    if (!existing) {
      try {
        await store.insertInstallation(trx, store.newInstallationRow(id, hostId, patch, now));
      } catch (err) {
        if (isUniqueViolation(err)) throw meanwhile();
        throw err;
      }
    }
    const claimed = await store.claimRow(trx, id, ctx.tenantId, { ...patch, claimed_at: now });
    if (claimed === 0) throw meanwhile();
    const entry = store.claimAuditEntry(store.newInstallationRow(id, hostId, patch, now));
    await tx.audit(
      provedBy ? { ...entry, summary: { ...entry.summary, proved_by: provedBy } } : entry,
    );
  });
}

/** GitHub's numeric id without leading zeros, as stored. */
export function canonicalHostId(id: string): string {
  const trimmed = id.trim();
  if (!/^[0-9]{1,20}$/.test(trimmed) || /^0+$/.test(trimmed)) throw notFound('Installation');
  return trimmed.replace(/^0+/, '');
}
