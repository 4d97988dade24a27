import type { Ctx } from '../../context.js';

/** Work the system does for a tenant (scheduled, or a task handler's): audited as no one. */
export function systemCtx(tenantId: string): Ctx {
  return { tenantId, actor: { kind: 'system', id: null } };
}
