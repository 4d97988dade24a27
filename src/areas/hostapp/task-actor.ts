import type { Actor, AdminLevel } from '../../context.js';
import { ADMIN_LEVELS } from '../../context.js';

/** The admin actor stored in a task payload, or the system when there is none (or it is bad). */
export function adminActorOf(value: unknown): Actor {
  const actor = value as { kind?: unknown; id?: unknown; level?: unknown } | null;
  if (actor?.kind === 'root') return { kind: 'root', id: null, level: 'owner' };
  if (
    actor?.kind === 'cma' &&
    typeof actor.id === 'string' &&
    (ADMIN_LEVELS as readonly unknown[]).includes(actor.level)
  ) {
    return { kind: 'cma', id: actor.id, level: actor.level as AdminLevel };
  }
  return { kind: 'system', id: null };
}
