import type { Ctx, Deps } from './context.js';
import type { Db } from './infra/db/connection.js';
import type { DomainEvent } from './infra/events.js';
import { recordAudit } from './areas/audit/record.js';
import type { AuditEntry } from './areas/audit/record.js';
import { writeEvents } from './areas/events/record.js';
import type { PendingEvent } from './areas/events/record.js';
import type { EventType } from './areas/events/types.js';
import { deliveriesQueued, queueDeliveries } from './areas/outgoing-webhooks/fanout.js';
import { queueNotifications } from './areas/notifications/queue.js';

/** What a unit of work needs: the database, and where its effects go after commit. */
export type UnitOfWorkDeps = Pick<Deps, 'db' | 'events' | 'generations' | 'log'>;

type Effect = () => Promise<void> | void;

/**
 * One mutation in progress: its transaction, and the effects declared inside it that run only
 * once it has committed (in one place, `transact`). A rolled-back unit leaves no trace: its
 * audit entries roll back with it, and its events and access-change stamp never happen.
 */
export interface Tx {
  /** The transaction: every read and write of the mutation goes through it. */
  readonly db: Db;
  readonly ctx: Ctx;
  /** Writes an audit entry in the transaction (it commits or rolls back with the rest). */
  audit: (entry: AuditEntry) => Promise<void>;
  /** Publishes the event after commit. */
  publish: (event: DomainEvent) => void;
  /**
   * Records an event of the outbox (docs/webhooks-outgoing.md): written with its deliveries in
   * the transaction, at the end of the unit's work, so it commits or rolls back with the change.
   */
  emit: (type: EventType, data: Record<string, unknown>) => void;
  /**
   * What a customer may see changed (grants, collections, status, tokens, versions…): the
   * tenant's access-change stamp moves with the commit (Last-Modified moves past every value
   * served before) and caches forget right after it. Once per unit, however often it is declared.
   */
  accessChanged: () => void;
  /**
   * Only these packages' p2 documents changed (an advisory about them): their cached answers
   * forget and their Last-Modified moves; the tenant's other documents keep theirs.
   */
  packagesChanged: (names: Iterable<string>) => void;
  /** Any other effect that must wait for the commit. */
  afterCommit: (effect: Effect) => void;
}

interface Pending {
  tx: Tx;
  effects: Effect[];
  accessChanged: boolean;
  packages: Set<string>;
  events: PendingEvent[];
  packageSeq?: number;
  /** The tenant's generation after the unit's stamp move (in its transaction), to announce. */
  generation?: number | null;
}

/** The units in progress, by their transaction handle (so code holding only `db` can join). */
const open = new WeakMap<Db, Pending>();

/** The unit of work `db` belongs to, when it is the transaction of one. */
export function unitOf(db: Db): Tx | null {
  return open.get(db)?.tx ?? null;
}

/** The unit of work `db` belongs to; code that writes through it must be inside one. */
export function requireUnit(db: Db): Tx {
  const tx = unitOf(db);
  if (!tx) throw new Error('This write must run inside a unit of work (transact)');
  return tx;
}

/**
 * Runs `work` as one unit: in a transaction, with its declared effects run after commit. Called
 * with `within` (a unit's transaction handle) it joins that unit instead: its effects wait for
 * the outer commit. Effects that fail are logged with the tenant and do not undo the commit.
 */
export async function transact<T>(
  deps: UnitOfWorkDeps,
  ctx: Ctx,
  work: (tx: Tx) => Promise<T>,
  options: { within?: Db } = {},
): Promise<T> {
  const outer = options.within ? open.get(options.within) : undefined;
  if (outer) return work(outer.tx);
  if (options.within?.isTransaction) {
    throw new Error('transact: joining a transaction that no unit of work opened');
  }
  let pending: Pending | undefined;
  const result = await deps.db.transaction().execute(async (trx) => {
    const state: Pending = {
      effects: [],
      accessChanged: false,
      packages: new Set(),
      events: [],
      tx: null as unknown as Tx,
    };
    state.tx = {
      db: trx,
      ctx,
      audit: (entry) => recordAudit(trx, ctx, entry),
      publish: (event) => state.effects.push(() => deps.events.publish(event)),
      emit: (type, data) => {
        state.events.push({ type, data });
      },
      accessChanged: () => {
        state.accessChanged = true;
      },
      packagesChanged: (names) => {
        for (const name of names) state.packages.add(name);
      },
      afterCommit: (effect) => state.effects.push(effect),
    };
    open.set(trx, state);
    try {
      const value = await work(state.tx);
      // The events take the tenant's event sequence, locked until the commit: late, like the
      // stamps below, so their ids follow the commit order. What they start commits with them:
      // their webhook deliveries and the e-mail notifications' task.
      if (state.events.length > 0) {
        const written = await writeEvents(trx, ctx.tenantId, state.events);
        const delivering = await queueDeliveries(trx, ctx.tenantId, written);
        const mailing = await queueNotifications(trx, ctx.tenantId, written);
        // One notice for the live readers of the outbox (GraphQL subscriptions) once committed.
        const last = written.at(-1)!;
        state.effects.push(() =>
          deps.events.publish({
            type: 'events.appended',
            tenantId: ctx.tenantId,
            lastId: last.id,
            at: last.created_at,
          }),
        );
        if (delivering || mailing) {
          state.effects.push(() => {
            deliveriesQueued.emit(deps.db);
          });
        }
      }
      // Last, so the tenant's generation row is locked only for the commit itself; the packages'
      // stamps first, so the tenant's stamp moves past them.
      if (state.packages.size > 0 && !state.accessChanged) {
        state.packageSeq = await deps.generations.movePackageStamps(trx, ctx.tenantId, [
          ...state.packages,
        ]);
      }
      if (state.accessChanged) {
        state.generation = await deps.generations.moveStamp(trx, ctx.tenantId);
      }
      pending = state;
      return value;
    } finally {
      open.delete(trx);
    }
  });
  if (pending) await runEffects(deps, ctx.tenantId, pending);
  return result;
}

/**
 * A committed unit's effects: the stamp's announcement first (caches forget before anyone hears),
 * then in order. The stamp itself moved in the transaction, so it survives a crash right here.
 */
async function runEffects(deps: UnitOfWorkDeps, tenantId: string, pending: Pending) {
  const { packageSeq } = pending;
  const effects = pending.accessChanged
    ? [() => deps.generations.announce(tenantId, pending.generation ?? null), ...pending.effects]
    : packageSeq !== undefined
      ? [
          () => deps.generations.announcePackages(tenantId, [...pending.packages], packageSeq),
          ...pending.effects,
        ]
      : pending.effects;
  for (const effect of effects) {
    try {
      await effect();
    } catch (err) {
      deps.log.error({ err, tenant: tenantId }, 'effect after commit failed');
    }
  }
}
