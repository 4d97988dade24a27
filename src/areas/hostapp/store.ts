import type { Selectable } from 'kysely';
import { unscoped } from '../../infra/db/tenant-scope.js';
import type { Db } from '../../infra/db/connection.js';
import type { HostAppInstallationsTable } from '../../infra/db/schema.js';

/**
 * An installation arrives from GitHub before any tenant claims it (tenant_id null), and GitHub's
 * installation id is unique across tenants: the row itself says which tenant claimed it.
 */
const UNCLAIMED = 'installations are found by GitHub id and may belong to no tenant yet';

export type InstallationRow = Selectable<HostAppInstallationsTable>;

/** The installation's repositories (full names) as last seen on GitHub. */
export function repositoriesOf(row: Pick<InstallationRow, 'repositories'>): string[] {
  try {
    const list: unknown = JSON.parse(row.repositories);
    return Array.isArray(list) ? list.filter((r): r is string => typeof r === 'string') : [];
  } catch {
    return [];
  }
}

export async function listClaimed(
  db: Db,
  tenantId: string,
  page?: { offset: number; limit: number },
): Promise<{ rows: InstallationRow[]; total: number }> {
  const base = db.selectFrom('hostapp_installations').where('tenant_id', '=', tenantId);
  let rows = base.selectAll().orderBy('account_login').orderBy('id');
  if (page) rows = rows.offset(page.offset).limit(page.limit);
  const [found, count] = await Promise.all([
    rows.execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: found, total: Number(count.n) };
}

/** This tenant's active installations: the ones that may lend credentials. */
export async function activeClaimed(db: Db, tenantId: string): Promise<InstallationRow[]> {
  return db
    .selectFrom('hostapp_installations')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('status', '=', 'active')
    .execute();
}

export async function findClaimed(
  db: Db,
  tenantId: string,
  id: string,
): Promise<InstallationRow | undefined> {
  return db
    .selectFrom('hostapp_installations')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** By GitHub's id; `forUpdate` locks the row for the transaction `db` is (PostgreSQL only). */
export async function findByHostId(
  db: Db,
  hostInstallationId: string,
  forUpdate = false,
): Promise<InstallationRow | undefined> {
  const query = unscoped(db, UNCLAIMED)
    .selectFrom('hostapp_installations')
    .selectAll()
    .where('host_installation_id', '=', hostInstallationId);
  return (forUpdate ? query.forUpdate() : query).executeTakeFirst();
}

export async function insertInstallation(db: Db, row: InstallationRow): Promise<void> {
  await unscoped(db, UNCLAIMED).insertInto('hostapp_installations').values(row).execute();
}

export type InstallationPatch = Partial<
  Pick<
    InstallationRow,
    'account_login' | 'account_type' | 'repository_selection' | 'status' | 'repositories'
  >
> & { updated_at: string };

/** A new installation row from what GitHub said of it (`patch`), claimed by `tenantId` if given. */
export function newInstallationRow(
  id: string,
  hostId: string,
  patch: InstallationPatch,
  now: string,
  tenantId: string | null = null,
): InstallationRow {
  return {
    id,
    tenant_id: tenantId,
    host_installation_id: hostId,
    account_login: patch.account_login ?? '',
    account_type: patch.account_type ?? 'Organization',
    repository_selection: patch.repository_selection ?? 'selected',
    status: patch.status ?? 'active',
    repositories: patch.repositories ?? '[]',
    created_at: now,
    updated_at: now,
    claimed_at: tenantId ? now : null,
  };
}

/** The audit entry of a claim, whoever makes it (an admin, or the webhook on arrival). */
export function claimAuditEntry(row: InstallationRow) {
  return {
    action: 'hostapp.claim',
    target: { type: 'hostapp_installation', id: row.id },
    summary: {
      host_installation_id: row.host_installation_id,
      account_login: row.account_login,
      repository_selection: row.repository_selection,
    },
  };
}

export async function updateByHostId(
  db: Db,
  hostInstallationId: string,
  patch: InstallationPatch,
): Promise<number> {
  const result = await unscoped(db, UNCLAIMED)
    .updateTable('hostapp_installations')
    .set(patch)
    .where('host_installation_id', '=', hostInstallationId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Attaches an unclaimed installation to the tenant; 0 when someone else claimed it first. */
export async function claimRow(
  db: Db,
  id: string,
  tenantId: string,
  patch: InstallationPatch & { claimed_at: string },
): Promise<number> {
  const result = await unscoped(db, UNCLAIMED)
    .updateTable('hostapp_installations')
    .set({ ...patch, tenant_id: tenantId })
    .where('id', '=', id)
    .where('tenant_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Detaches the installation from the tenant (it may be claimed again). */
export async function detach(db: Db, tenantId: string, id: string, at: string): Promise<void> {
  await db
    .updateTable('hostapp_installations')
    .set({ tenant_id: null, claimed_at: null, updated_at: at })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();
}
