import { sql } from 'kysely';
import type { Db } from './db/connection.js';
import type { Logger } from './logger.js';
import { unscoped } from './db/tenant-scope.js';
import type { Peers } from './peers.js';

/** An access-change stamp: whole seconds (HTTP dates have no finer precision), as milliseconds. */
const SECOND = 1000;
const MAX_PACKAGES = 100_000;
/** Past this many packages in one change, the other processes forget the whole tenant instead. */
const MAX_NOTICE_PACKAGES = 1000;
/** The next whole second after now, in milliseconds. */
const nextSecond = () => Math.floor(Date.now() / SECOND) * SECOND + SECOND;

/**
 * A per-tenant counter that moves whenever something visible on the Composer surface changes,
 * so in-memory caches know when to drop what they hold, and with it the tenant's access-change
 * stamp: a time, strictly past every Last-Modified served before the change (see
 * `accessChanged`), that the Composer documents' Last-Modified derives from. A change made in this
 * process is seen at once, and by the other processes of the same serve before the change's call
 * answers (`peers`, over the cluster's IPC); other nodes hear it through Redis when there is one,
 * and poll the database within `pollMs` in any case (docs/deployment.md).
 */
export class CacheGeneration {
  private readonly local = new Map<string, number>();
  private readonly seenInDb = new Map<string, number>();
  /** Per package of a tenant (`tenant\nname`): moves when the package changes alone. */
  private readonly packageLocal = new Map<string, number>();
  private readonly seenPackageSeq = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private stopListening: (() => void)[] = [];

  constructor(
    private readonly db: Db,
    private readonly pollMs = 1000,
    private readonly peers?: Peers,
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
    await this.announce(tenantId, await this.moveStamp(this.db, tenantId));
  }

  /**
   * The database half of `accessChanged`, run by a unit of work as the last statement of its own
   * transaction: the generation and stamp then commit with the change itself, so a process that
   * dies right after the commit (a killed worker) cannot leave other nodes' caches stale. Returns
   * the new generation, for `announce` once the transaction has committed.
   */
  async moveStamp(db: Db, tenantId: string): Promise<number | null> {
    const next = nextSecond();
    // Past the stamp and past every package stamp (the floor), whichever is later.
    const row = await db
      .insertInto('cache_generations')
      .values({ tenant_id: tenantId, generation: 1, stamp_ms: next })
      .onConflict((oc) =>
        oc.column('tenant_id').doUpdateSet({
          generation: sql<number>`cache_generations.generation + 1`,
          stamp_ms: sql<number>`case
            when cache_generations.stamp_ms >= cache_generations.floor_ms
              and cache_generations.stamp_ms + ${SECOND} > ${next}
              then cache_generations.stamp_ms + ${SECOND}
            when cache_generations.floor_ms > cache_generations.stamp_ms
              and cache_generations.floor_ms + ${SECOND} > ${next}
              then cache_generations.floor_ms + ${SECOND}
            else ${next} end`,
        }),
      )
      .returning('generation')
      .executeTakeFirst();
    return row ? Number(row.generation) : null;
  }

  /**
   * What only some packages' p2 documents show changed (an advisory about them): their cached
   * answers forget, on every node, and their Last-Modified moves strictly past every value served
   * for them before, while every other document of the tenant keeps its cache and its
   * Last-Modified. Run by a unit of work in its transaction (`tx.packagesChanged`); returns the
   * tenant's package sequence for `announcePackages` after commit.
   */
  async movePackageStamps(db: Db, tenantId: string, names: readonly string[]): Promise<number> {
    const row = await db
      .insertInto('cache_generations')
      .values({ tenant_id: tenantId, generation: 0, stamp_ms: 0, package_seq: 1 })
      .onConflict((oc) =>
        oc.column('tenant_id').doUpdateSet({
          package_seq: sql<number>`cache_generations.package_seq + 1`,
        }),
      )
      .returning(['package_seq', 'stamp_ms'])
      .executeTakeFirstOrThrow();
    const seq = Number(row.package_seq);
    // A document's Last-Modified is at most the tenant's stamp or a past second, or its
    // package's earlier stamp: the new stamp is past all three.
    const base = Math.max(nextSecond(), Number(row.stamp_ms) + SECOND);
    const unique = [...new Set(names)];
    for (let i = 0; i < unique.length; i += 300) {
      await db
        .insertInto('package_stamps')
        .values(
          unique.slice(i, i + 300).map((name) => ({
            tenant_id: tenantId,
            name,
            generation: 1,
            seq,
            stamp_ms: base,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['tenant_id', 'name']).doUpdateSet({
            generation: sql<number>`package_stamps.generation + 1`,
            seq: sql<number>`excluded.seq`,
            stamp_ms: sql<number>`case when package_stamps.stamp_ms + ${SECOND} > excluded.stamp_ms
              then package_stamps.stamp_ms + ${SECOND} else excluded.stamp_ms end`,
          }),
        )
        .execute();
    }
    const top = await db
      .selectFrom('package_stamps')
      .select((eb) => eb.fn.max<number>('stamp_ms').as('ms'))
      .where('tenant_id', '=', tenantId)
      .where('seq', '=', seq)
      .executeTakeFirst();
    const floor = Number(top?.ms ?? 0);
    await db
      .updateTable('cache_generations')
      .set({
        floor_ms: sql<number>`case when floor_ms > ${floor} then floor_ms else ${floor} end`,
      })
      .where('tenant_id', '=', tenantId)
      .execute();
    return seq;
  }

  /**
   * The process half of `movePackageStamps`, after commit: this process forgets at once, and the
   * serve's other processes before the promise resolves.
   */
  announcePackages(tenantId: string, names: readonly string[], seq: number): Promise<void> {
    this.forgetPackages(tenantId, names, seq);
    if (!this.peers) return Promise.resolve();
    return names.length > MAX_NOTICE_PACKAGES
      ? this.peers.tell({ kind: 'generation', tenantId, generation: null })
      : this.peers.tell({ kind: 'packages', tenantId, names: [...names], seq });
  }

  private forgetPackages(tenantId: string, names: readonly string[], seq: number): void {
    for (const name of names) this.bumpPackage(tenantId, name);
    const seen = this.seenPackageSeq.get(tenantId);
    if (seen !== undefined && seq === seen + 1) this.seenPackageSeq.set(tenantId, seq);
  }

  /** The package's own generation in this process: its cached documents carry it. */
  packageCurrent(tenantId: string, name: string): number {
    return this.packageLocal.get(`${tenantId}\n${name}`) ?? 0;
  }

  /** The package's own stamp (0 when it never changed alone): its documents' Last-Modified floor. */
  async packageStampMs(tenantId: string, name: string): Promise<number> {
    const row = await this.db
      .selectFrom('package_stamps')
      .select('stamp_ms')
      .where('tenant_id', '=', tenantId)
      .where('name', '=', name)
      .executeTakeFirst();
    return Number(row?.stamp_ms ?? 0);
  }

  private bumpPackage(tenantId: string, name: string): void {
    const key = `${tenantId}\n${name}`;
    if (this.packageLocal.size >= MAX_PACKAGES) {
      // Forgetting the counters could let an old entry match again: every cache forgets instead.
      this.packageLocal.clear();
      for (const [tenant, generation] of this.local) this.local.set(tenant, generation + 1);
    }
    this.packageLocal.set(key, (this.packageLocal.get(key) ?? 0) + 1);
  }

  /**
   * The process half of `accessChanged`, after the move committed: this process's caches forget
   * now; the promise resolves once the serve's other processes have forgotten too, and other
   * nodes hear at once through Redis (their poll being the fallback).
   */
  announce(tenantId: string, generation: number | null): Promise<void> {
    this.local.set(tenantId, this.current(tenantId) + 1);
    if (generation !== null) {
      // Our own move needs no second invalidation when the poll sees it; anyone else's does.
      const seen = this.seenInDb.get(tenantId) ?? 0;
      if (generation === seen + 1) this.seenInDb.set(tenantId, seen + 1);
    }
    return this.peers?.tell({ kind: 'generation', tenantId, generation }) ?? Promise.resolve();
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
    if (this.peers && this.stopListening.length === 0) {
      this.stopListening = [
        this.peers.on('generation', ({ tenantId, generation }) =>
          generation === null
            ? this.local.set(tenantId, this.current(tenantId) + 1)
            : this.observe(tenantId, generation),
        ),
        this.peers.on('packages', ({ tenantId, names, seq }) =>
          this.forgetPackages(tenantId, names, seq),
        ),
      ];
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
    for (const stop of this.stopListening.splice(0)) stop();
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
      await this.pollPackages(row.tenant_id, Number(row.package_seq));
    }
  }

  /** Packages another process changed alone since this one last looked: theirs forget. */
  private async pollPackages(tenantId: string, seq: number): Promise<void> {
    const seen = this.seenPackageSeq.get(tenantId);
    this.seenPackageSeq.set(tenantId, seq);
    // First sight of the tenant: its generation moved here too, so nothing cached survives.
    if (seen === undefined || seen >= seq) return;
    const changed = await this.db
      .selectFrom('package_stamps')
      .select('name')
      .where('tenant_id', '=', tenantId)
      .where('seq', '>', seen)
      .execute();
    for (const { name } of changed) this.bumpPackage(tenantId, name);
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
