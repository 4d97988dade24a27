import type { Deps } from '../context.js';
import { liveEvents } from '../areas/events/live.js';
import type { EventDto } from '../areas/events/types.js';
import type { DomainEvent, EventBus } from '../infra/events.js';

/**
 * The async iterators GraphQL subscriptions return (src/graphql/subscriptions.ts): a bounded
 * queue per subscription, fed by the events table (outbox events) and by the bus (the rest).
 */

/** Values buffered per subscription before the oldest are dropped (a stalled client). */
const QUEUE_LIMIT = 1000;

interface Stream<T> {
  iterator: AsyncIterableIterator<T>;
  push(value: T): void;
  /** Runs once when the subscription ends (its listeners go). */
  onEnd(cleanup: () => void): void;
}

/** A queue read as an async iterator; `return()` ends it (client completes, socket closes). */
function queueStream<T>(): Stream<T> {
  const queue: T[] = [];
  const cleanups: (() => void)[] = [];
  let waiting: ((result: IteratorResult<T>) => void) | null = null;
  let done = false;
  const push = (value: T) => {
    if (done) return;
    if (waiting) {
      const resolve = waiting;
      waiting = null;
      resolve({ value, done: false });
      return;
    }
    queue.push(value);
    if (queue.length > QUEUE_LIMIT) queue.shift();
  };
  const finish = (): Promise<IteratorResult<T>> => {
    if (!done) {
      done = true;
      for (const cleanup of cleanups.splice(0)) cleanup();
      queue.length = 0;
      if (waiting) {
        const resolve = waiting;
        waiting = null;
        resolve({ value: undefined, done: true });
      }
    }
    return Promise.resolve({ value: undefined, done: true });
  };
  const iterator: AsyncIterableIterator<T> = {
    next: () => {
      if (queue.length > 0) return Promise.resolve({ value: queue.shift() as T, done: false });
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => {
        waiting = resolve;
      });
    },
    return: finish,
    throw: async (error: unknown) => {
      await finish();
      throw error;
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  const onEnd = (cleanup: () => void) => {
    if (done) cleanup();
    else cleanups.push(cleanup);
  };
  return { iterator, push, onEnd };
}

/** The bus events that `select` maps to a value, as an async iterator (one bus listener). */
export function eventStream<T>(
  bus: EventBus,
  select: (event: DomainEvent) => T | null,
): AsyncIterableIterator<T> {
  const stream = queueStream<T>();
  stream.onEnd(
    bus.subscribe((event) => {
      const value = select(event);
      if (value !== null) stream.push(value);
    }),
  );
  return stream.iterator;
}

/**
 * A subscription's values: the tenant's outbox events that `fromOutbox` maps, read from the
 * events table on each `events.appended` notice (src/areas/events/live.ts: one read per notice
 * per tenant, in id order, nothing lost with a lost notice), and the bus events that are not
 * outbox events that `fromBus` maps. One bus listener per subscription, gone when it ends.
 */
export async function outboxStream<T>(
  deps: Pick<Deps, 'db' | 'log' | 'events'>,
  tenantId: string,
  fromOutbox: (event: EventDto) => T | null,
  fromBus: (event: DomainEvent) => T | null = () => null,
): Promise<AsyncIterableIterator<T>> {
  const live = liveEvents(deps);
  const stream = queueStream<T>();
  stream.onEnd(
    await live.listen(tenantId, (event) => {
      const value = fromOutbox(event);
      if (value !== null) stream.push(value);
    }),
  );
  stream.onEnd(
    deps.events.subscribe((event) => {
      if (event.tenantId !== tenantId) return;
      if (event.type === 'events.appended') return live.notice(tenantId, event.lastId);
      const value = fromBus(event);
      if (value !== null) stream.push(value);
    }),
  );
  // What committed while the listener was being set up.
  live.notice(tenantId, null);
  return stream.iterator;
}
