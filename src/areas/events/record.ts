import { sql } from 'kysely';
import { nowIso } from '../../context.js';
import type { Db } from '../../infra/db/connection.js';
import type { EventDto, EventType } from './types.js';
import { eventId } from './types.js';

/** An event declared in a unit of work, written when the unit's work is done. */
export interface PendingEvent {
  type: EventType;
  data: Record<string, unknown>;
}

/**
 * Takes `count` numbers of the tenant's event sequence. The counter row stays locked until the
 * transaction commits (PostgreSQL; SQLite serializes writers), so a later event's id is always
 * higher than any event committed before it: a reader that saw id N never misses an id below N
 * committed afterwards. Run last in a unit of work, so the lock is held for the commit only.
 */
export async function takeEventSeq(db: Db, tenantId: string, count: number): Promise<number> {
  const row = await db
    .insertInto('event_counters')
    .values({ tenant_id: tenantId, seq: count })
    .onConflict((oc) =>
      oc.column('tenant_id').doUpdateSet({ seq: sql<number>`event_counters.seq + ${count}` }),
    )
    .returning('seq')
    .executeTakeFirstOrThrow();
  return Number(row.seq) - count + 1;
}

/** An event as written, with the package it is about (deliveries keep each package's order). */
export type WrittenEvent = EventDto & { package: string | null };

/**
 * Writes a unit's events in its transaction (the unit of work calls it once, at the end of the
 * work) and returns them, for the work they start in the same transaction (the deliveries to
 * webhook endpoints, the e-mail notifications' task).
 */
export async function writeEvents(
  db: Db,
  tenantId: string,
  events: readonly PendingEvent[],
): Promise<WrittenEvent[]> {
  if (events.length === 0) return [];
  const first = await takeEventSeq(db, tenantId, events.length);
  const createdAt = nowIso();
  const rows = events.map((e, i) => ({
    tenant_id: tenantId,
    id: eventId(first + i),
    type: e.type,
    package: typeof e.data.package === 'string' ? e.data.package : null,
    data: JSON.stringify(e.data),
    created_at: createdAt,
  }));
  // SQLite takes at most 32,766 bound values per statement: 6 per row.
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto('events')
      .values(rows.slice(i, i + 500))
      .execute();
  }
  return rows.map((r, i) => ({
    id: r.id,
    type: r.type,
    created_at: r.created_at,
    data: events[i]!.data,
    package: r.package,
  }));
}
