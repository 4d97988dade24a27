import type { Ctx, Deps } from '../../context.js';
import { invalid } from '../../errors.js';
import { deleteEventsBefore, listEvents } from './store.js';
import type { EventDto } from './types.js';
import { EVENT_ID_RE, EVENT_TYPES } from './types.js';

export const DEFAULT_FEED_LIMIT = 100;
export const MAX_FEED_LIMIT = 500;

export interface EventFeed {
  data: EventDto[];
  /** The id of the last event returned, or the `after` given (null without either). */
  next: string | null;
}

/** The event feed (docs/webhooks-outgoing.md): the outbox read oldest first, and its retention. */
export class EventService {
  constructor(private readonly deps: Deps) {}

  /** `after` an event id (exclusive), `type` one type or several separated by commas. */
  async list(
    ctx: Ctx,
    query: { after?: string | null; type?: string | null; limit?: number | null },
  ): Promise<EventFeed> {
    const after = query.after ?? null;
    if (after !== null && !EVENT_ID_RE.test(after)) {
      throw invalid('after', 'must be an event id (evt_ and 16 digits)');
    }
    const limit = query.limit ?? DEFAULT_FEED_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_FEED_LIMIT) {
      throw invalid('limit', `must be an integer from 1 to ${MAX_FEED_LIMIT}`);
    }
    const types = query.type ? query.type.split(',').map((t) => t.trim()) : [];
    const known: readonly string[] = EVENT_TYPES;
    const unknown = types.find((t) => !known.includes(t));
    if (unknown !== undefined) throw invalid('type', `unknown event type "${unknown}"`);
    const data = await listEvents(this.deps.db, ctx.tenantId, { after, types, limit });
    return { data, next: data.at(-1)?.id ?? after };
  }

  /** Deletes events older than EVENT_RETENTION_DAYS; returns how many. */
  async applyRetention(tenantId: string): Promise<number> {
    const days = this.deps.config.eventRetentionDays;
    const cutoff = new Date(Date.now() - days * 86_400_000).toISOString();
    return deleteEventsBefore(this.deps.db, tenantId, cutoff);
  }
}
