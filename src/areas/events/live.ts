import type { Deps } from '../../context.js';
import { newestEventId } from './newest.js';
import { listEvents } from './store.js';
import type { EventDto, EventType } from './types.js';

/**
 * The outbox read live (docs/graphql.md, "Where events come from"): GraphQL subscriptions whose
 * data is an outbox event follow the events table itself. A unit of work that wrote events sends
 * one small notice on the event bus after its commit (`events.appended`: "tenant T has events up
 * to id N", across nodes with Redis); each tenant with live listeners has one tail here that, on
 * a notice, reads the rows after its cursor and hands them to every listener in id order. A lost
 * or merged notice loses nothing: the next read starts where the last one ended.
 */

/** The types a subscription shows; the tail reads no others. */
export const LIVE_EVENT_TYPES: readonly EventType[] = [
  'package.synced',
  'token.created',
  'token.revoked',
  'access.granted',
  'access.revoked',
  'customer.status_changed',
];

/** Rows read per query; a longer backlog is read in several. */
const PAGE = 500;

export type LiveListener = (event: EventDto) => void;

interface Tail {
  /** The id of the last event handed out (or the newest when the tail started). */
  cursor: string | null;
  /** The highest id a notice announced; a read runs while it is above the cursor. */
  target: string | null;
  /** A notice without an id (a listener starting) asks for one read regardless. */
  forced: boolean;
  reading: boolean;
  ready: Promise<void>;
  listeners: Set<LiveListener>;
}

export class LiveEvents {
  private readonly tails = new Map<string, Tail>();

  constructor(private readonly deps: Pick<Deps, 'db' | 'log'>) {}

  /**
   * Hands `listener` every live-type event of the tenant committed from now on, in id order;
   * resolves once it is registered, with the function that removes it.
   */
  async listen(tenantId: string, listener: LiveListener): Promise<() => void> {
    let tail = this.tails.get(tenantId);
    if (!tail) {
      const created: Tail = {
        cursor: null,
        target: null,
        forced: false,
        reading: false,
        ready: Promise.resolve(),
        listeners: new Set(),
      };
      created.ready = newestEventId(this.deps.db, tenantId).then((id) => {
        created.cursor = id;
      });
      this.tails.set(tenantId, created);
      tail = created;
    }
    try {
      await tail.ready;
    } catch (err) {
      if (this.tails.get(tenantId) === tail && tail.listeners.size === 0) {
        this.tails.delete(tenantId);
      }
      throw err;
    }
    const own = tail;
    own.listeners.add(listener);
    return () => {
      own.listeners.delete(listener);
      if (own.listeners.size === 0 && this.tails.get(tenantId) === own) this.tails.delete(tenantId);
    };
  }

  /**
   * The tenant has committed events up to `lastId` (null: unknown, read anyway). One read serves
   * every listener of the tenant, and notices already covered by a read cost nothing.
   */
  notice(tenantId: string, lastId: string | null): void {
    const tail = this.tails.get(tenantId);
    if (!tail || tail.listeners.size === 0) return;
    if (lastId === null) tail.forced = true;
    else if (tail.target === null || lastId > tail.target) tail.target = lastId;
    if (!tail.reading) void this.drain(tenantId, tail);
  }

  /** One read of the table: the tenant's live-type events after `cursor`, oldest first. */
  readAfter(tenantId: string, cursor: string | null): Promise<EventDto[]> {
    return listEvents(this.deps.db, tenantId, {
      after: cursor,
      types: LIVE_EVENT_TYPES,
      limit: PAGE,
    });
  }

  private pending(tail: Tail): boolean {
    if (tail.forced) return true;
    return tail.target !== null && (tail.cursor === null || tail.target > tail.cursor);
  }

  private async drain(tenantId: string, tail: Tail): Promise<void> {
    tail.reading = true;
    try {
      while (this.pending(tail) && tail.listeners.size > 0) {
        tail.forced = false;
        // Every event up to the announced id committed before this read starts.
        const goal = tail.target;
        let page: EventDto[];
        do {
          page = await this.readAfter(tenantId, tail.cursor);
          for (const event of page) {
            tail.cursor = event.id;
            for (const listener of [...tail.listeners]) {
              try {
                listener(event);
              } catch (err) {
                this.deps.log.error({ err, tenant: tenantId }, 'a live event listener failed');
              }
            }
          }
        } while (page.length === PAGE);
        // Filtered by type, the last row read may be below the announced id: nothing is left.
        if (goal !== null && (tail.cursor === null || goal > tail.cursor)) tail.cursor = goal;
      }
    } catch (err) {
      // The cursor stays where it was: the next notice reads again from there.
      this.deps.log.error({ err, tenant: tenantId }, 'reading live events failed');
    } finally {
      tail.reading = false;
    }
  }
}

const shared = new WeakMap<object, LiveEvents>();

/** The one live reader of these dependencies (one per runtime, shared by its subscriptions). */
export function liveEvents(deps: Pick<Deps, 'db' | 'log' | 'events'>): LiveEvents {
  let live = shared.get(deps.events);
  if (!live) {
    live = new LiveEvents(deps);
    shared.set(deps.events, live);
  }
  return live;
}
