import type { Selectable } from 'kysely';
import type { Db } from '../../infra/db/connection.js';
import type { EventsTable } from '../../infra/db/schema.js';
import { forTenant } from '../../infra/db/tenant-scope.js';
import type { EventDto } from './types.js';

export type EventRow = Selectable<EventsTable>;

export function presentEvent(row: EventRow): EventDto {
  return {
    id: row.id,
    type: row.type,
    created_at: row.created_at,
    data: JSON.parse(row.data) as Record<string, unknown>,
  };
}

export interface EventQuery {
  /** Only events after this id (exclusive); from the oldest kept event without it. */
  after?: string | null;
  /** Only these types; every type when absent or empty. */
  types?: readonly string[] | null;
  /** At most this many (the feed allows 1-500). */
  limit: number;
}

/**
 * The tenant's events, oldest first: the one reading API of the outbox, for the feed and for
 * anything else built on it (e-mail notifications, the mirrors' change log).
 */
export async function listEvents(db: Db, tenantId: string, query: EventQuery): Promise<EventDto[]> {
  let q = forTenant(db, tenantId)
    .selectFrom('events')
    .selectAll()
    .where('tenant_id', '=', tenantId);
  if (query.after) q = q.where('id', '>', query.after);
  if (query.types && query.types.length > 0) q = q.where('type', 'in', [...query.types]);
  const rows = await q.orderBy('id', 'asc').limit(query.limit).execute();
  return rows.map(presentEvent);
}

/** Deletes the tenant's events created before `before`; returns how many. */
export async function deleteEventsBefore(db: Db, tenantId: string, before: string) {
  const result = await forTenant(db, tenantId)
    .deleteFrom('events')
    .where('tenant_id', '=', tenantId)
    .where('created_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
