import type { Ctx } from '../../context.js';
import { nowIso } from '../../context.js';
import { sortableId } from '../../infra/crypto.js';
import type { Db } from '../../infra/db/connection.js';

export interface AuditEntry {
  /** `<area>.<verb>`, e.g. `customer.suspend`. */
  action: string;
  target: { type: string; id: string };
  /** What changed, without secrets. */
  summary?: Record<string, unknown>;
}

/**
 * Writes one audit entry with the handle the mutation uses, so it commits or rolls back with
 * it: pass the transaction. Recorded in every edition; reading it is Pro and above.
 */
export async function recordAudit(db: Db, ctx: Ctx, entry: AuditEntry): Promise<void> {
  const actor = ctx.actor;
  await db
    .insertInto('audit_log')
    .values({
      // Time-ordered: entries of one millisecond list newest first too (created_at, id desc).
      id: sortableId(),
      tenant_id: ctx.tenantId,
      actor_kind: actor.kind,
      actor_id: actor.kind === 'customer' ? `${actor.customerId}/${actor.id}` : actor.id,
      action: entry.action,
      target_type: entry.target.type,
      target_id: entry.target.id,
      summary: JSON.stringify(entry.summary ?? {}),
      ip: ctx.ip ?? null,
      user_agent: ctx.userAgent ?? null,
      created_at: nowIso(),
    })
    .execute();
}
