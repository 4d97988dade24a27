import { sql } from 'kysely';
import type { Db } from './db/connection.js';
import type { Logger } from './logger.js';
import { unscoped } from './db/tenant-scope.js';

/**
 * A fast path between nodes for generation moves (Redis pub/sub with REDIS_URL): a bump here is
 * announced at once, so other nodes need not wait for their next database poll.
 */
export interface GenerationSignal {
  /** Announces that the tenant's generation in the database is now `generation`. */
  sendBump(tenantId: string, generation: number): void;
  /** Calls `listener` with every bump another node announces; returns the unsubscribe. */
  onRemoteBump(listener: (tenantId: string, generation: number) => void): () => void;
}

/** An access-change stamp: whole seconds (HTTP dates have no finer precision), as milliseconds. */
const SECOND = 1000;

/**
 * A per-tenant counter that moves whenever something visible on the Composer surface changes,
 * so in-memory caches know when to drop what they hold, and with it the tenant's access-change
 * stamp: a time, strictly past every Last-Modified served before the change (see
 * `accessChanged`), that the Composer documents' Last-Modified derives from. A change made in this process is seen at
 * once; one made by another process or node (a worker's sync) is picked up by polling the
 * database, within `pollMs`, or at once when a `signal` carries it (the poll stays the fallback).
 */
export class CacheGeneration {
  private readonly local = new Map<string, number>();
  private readonly seenInDb = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private stopListening: (() => void) | null = null;

  constructor(
    private readonly db: Db,
    private readonly pollMs = 1000,
    private readonly signal?: GenerationSignal,
    private readonly log?: Logger,
  ) {}

  current(tenantId: string): number {
    return this.local.get(tenantId) ?? 0;
  }

  /**
   * THE function to call when what a customer may see changes (grants, collections, status,
   * tokens, versions; proxy refreshes and advisories later): invalidates this process's caches
   * now, tells other processes through the database, and moves the tenant's access-change stamp
   * to at least the next whole second after now and at least one second past its last value.
   * Every Last-Modified served before was at most the stamp or a whole second no later than
   * now, so the new one is strictly later than all of them, even within the same second.
   * Inside a mutation, declare it with `tx.accessChanged()` (unit-of-work.ts) instead.
   */
  async accessChanged(tenantId: string): Promise<void> {
    this.announce(tenantId, await this.moveStamp(this.db, tenantId));
  }

  /**
   * The database half of `accessChanged`, run by a unit of work as the last statement of its own
   * transaction: the generation and stamp then commit with the change itself, so a process that
   * dies right after the commit (a killed worker) cannot leave other nodes' caches stale. Returns
   * the new generation, for `announce` once the transaction has committed.
   */
  async moveStamp(db: Db, tenantId: string): Promise<number | null> {
    const next = Math.floor(Date.now() / SECOND) * SECOND + SECOND;
    const row = await db
      .insertInto('cache_generations')
      .values({ tenant_id: tenantId, generation: 1, stamp_ms: next })
      .onConflict((oc) =>
        oc.column('tenant_id').doUpdateSet({
          generation: sql<number>`cache_generations.generation + 1`,
          stamp_ms: sql<number>`case when cache_generations.stamp_ms + ${SECOND} > ${next}
            then cache_generations.stamp_ms + ${SECOND} else ${next} end`,
        }),
      )
      .returning('generation')
      .executeTakeFirst();
    return row ? Number(row.generation) : null;
  }

  /**
   * The process half of `accessChanged`, after the move committed: this process's caches forget
   * now, and other nodes hear at once through the signal (their poll being the fallback).
   */
  announce(tenantId: string, generation: number | null): void {
    this.local.set(tenantId, this.current(tenantId) + 1);
    if (generation === null) return;
    // Our own move needs no second invalidation when the poll sees it; anyone else's does.
    const seen = this.seenInDb.get(tenantId) ?? 0;
    if (generation === seen + 1) this.seenInDb.set(tenantId, seen + 1);
    this.signal?.sendBump(tenantId, generation);
  }

  /** The tenant's access-change stamp in milliseconds (0 before its first change). */
  async stampMs(tenantId: string): Promise<number> {
    const row = await this.db
      .selectFrom('cache_generations')
      .select('stamp_ms')
      .where('tenant_id', '=', tenantId)
      .executeTakeFirst();
    return Number(row?.stamp_ms ?? 0);
  }

  start(): void {
    if (this.signal && !this.stopListening) {
      this.stopListening = this.signal.onRemoteBump((tenantId, generation) =>
        this.observe(tenantId, generation),
      );
    }
    if (this.timer) return;
    this.timer = setInterval(
      () =>
        void this.poll().catch((err: unknown) => {
          // Caches keep their entries until a poll succeeds: other nodes' changes wait.
          this.log?.error({ err }, 'cache generation poll failed');
        }),
      this.pollMs,
    );
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopListening?.();
    this.stopListening = null;
  }

  async poll(): Promise<void> {
    const rows = await unscoped(this.db, 'each node follows every tenant’s generation')
      .selectFrom('cache_generations')
      .selectAll()
      .execute();
    for (const row of rows) {
      const generation = Number(row.generation);
      if (this.seenInDb.get(row.tenant_id) !== generation) {
        this.seenInDb.set(row.tenant_id, generation);
        this.local.set(row.tenant_id, this.current(row.tenant_id) + 1);
      }
    }
  }

  /**
   * A bump another node announced: invalidates unless this process has already seen that database
   * generation (its own bump, or a poll), so the poll that follows does not invalidate twice.
   */
  private observe(tenantId: string, generation: number): void {
    if (generation <= (this.seenInDb.get(tenantId) ?? 0)) return;
    this.seenInDb.set(tenantId, generation);
    this.local.set(tenantId, this.current(tenantId) + 1);
  }
}
