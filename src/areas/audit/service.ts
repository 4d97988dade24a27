import { pageOf } from '../../infra/db/page.js';
import type { Selectable } from 'kysely';
import type { Ctx, Deps } from '../../context.js';
import type { AuditLogTable } from '../../infra/db/schema.js';
import type { AuditEntryDto, AuditFilter } from './schema.js';

type AuditRow = Selectable<AuditLogTable>;

export function presentAuditEntry(row: AuditRow): AuditEntryDto {
  return {
    id: row.id,
    actor: { kind: row.actor_kind, id: row.actor_id },
    action: row.action,
    target: { type: row.target_type, id: row.target_id },
    summary: JSON.parse(row.summary) as Record<string, unknown>,
    ip: row.ip,
    user_agent: row.user_agent,
    created_at: row.created_at,
  };
}

/** Reads the audit trail and applies its retention. */
export class AuditService {
  constructor(private readonly deps: Deps) {}

  /**
   * Newest first. `actor` matches the actor id or kind (`root`), `action` an exact action or a
   * prefix ending in `.` (`customer.`), `target` the target id.
   */
  async list(ctx: Ctx, filter: AuditFilter, page: { offset: number; limit: number }) {
    let base = this.deps.db.selectFrom('audit_log').where('tenant_id', '=', ctx.tenantId);
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

  /** Deletes entries older than AUDIT_LOG_RETENTION_DAYS; returns how many. */
  async applyRetention(tenantId: string): Promise<number> {
    const cutoff = new Date(Date.now() - this.deps.config.auditLogRetentionDays * 86_400_000);
    const result = await this.deps.db
      .deleteFrom('audit_log')
      .where('tenant_id', '=', tenantId)
      .where('created_at', '<', cutoff.toISOString())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
