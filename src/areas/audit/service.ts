import type { Ctx, Deps } from '../../context.js';
import type { AuditEntryDto, AuditFilter } from './schema.js';
import { deleteAuditBefore, listAudit } from './store.js';
import type { AuditRow } from './store.js';

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
    return listAudit(this.deps.db, ctx.tenantId, filter, page);
  }

  /** Deletes entries older than AUDIT_LOG_RETENTION_DAYS; returns how many. */
  async applyRetention(tenantId: string): Promise<number> {
    const cutoff = new Date(Date.now() - this.deps.config.auditLogRetentionDays * 86_400_000);
    return deleteAuditBefore(this.deps.db, tenantId, cutoff.toISOString());
  }
}
