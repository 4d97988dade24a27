import { sql } from 'kysely';
import { nowIso } from '../../context.js';
import type { Db } from '../../infra/db/connection.js';
import { queueDeliveries } from '../outgoing-webhooks/fanout.js';
import { queueNotifications } from '../notifications/queue.js';
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

/**
 * Writes a unit's events in its transaction (the unit of work calls it once, at the end of the
 * work), the deliveries to the tenant's endpoints subscribed to them, and the task that mails
 * the tenant's notification recipients. Returns true when a delivery or that task was queued,
 * so the unit wakes the workers after commit.
 */
export async function writeEvents(
  db: Db,
  tenantId: string,
  events: readonly PendingEvent[],
): Promise<boolean> {
  if (events.length === 0) return false;
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
  const dtos: (EventDto & { package: string | null })[] = rows.map((r, i) => ({
    id: r.id,
    type: r.type,
    created_at: r.created_at,
    data: events[i]!.data,
    package: r.package,
  }));
  const delivering = await queueDeliveries(db, tenantId, dtos);
  // E-mail notifications read the same events (areas/notifications): their task commits too.
  const mailing = await queueNotifications(db, tenantId, dtos);
  return delivering || mailing;
}
