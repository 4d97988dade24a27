import type { Selectable } from 'kysely';
import type { Db } from '../../infra/db/connection.js';
import { pageOf } from '../../infra/db/page.js';
import type { AuditLogTable } from '../../infra/db/schema.js';
import type { AuditFilter } from './schema.js';

export type AuditRow = Selectable<AuditLogTable>;

/** A page of the tenant's audit trail matching `filter`, newest first. */
export function listAudit(
  db: Db,
  tenantId: string,
  filter: AuditFilter,
  page: { offset: number; limit: number },
) {
  let base = db.selectFrom('audit_log').where('tenant_id', '=', tenantId);
  if (filter.actor) {
    const actor = filter.actor;
    base = base.where((eb) => eb.or([eb('actor_id', '=', actor), eb('actor_kind', '=', actor)]));
  }
  if (filter.action) {
    base = filter.action.endsWith('.')
      ? base.where('action', 'like', `${filter.action.replace(/[%_]/g, '')}%`)
      : base.where('action', '=', filter.action);
  }
  if (filter.target) base = base.where('target_id', '=', filter.target);
  if (filter.from) base = base.where('created_at', '>=', new Date(filter.from).toISOString());
  if (filter.to) base = base.where('created_at', '<=', new Date(filter.to).toISOString());
  return pageOf(
    base,
    (qb) => qb.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'),
    page,
  );
}

/** Deletes the tenant's entries older than `cutoff`; returns how many. */
export async function deleteAuditBefore(db: Db, tenantId: string, cutoff: string) {
  const result = await db
    .deleteFrom('audit_log')
    .where('tenant_id', '=', tenantId)
    .where('created_at', '<', cutoff)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
