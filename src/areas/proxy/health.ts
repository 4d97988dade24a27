import type { Db } from '../../infra/db/connection.js';
import { transact } from '../../unit-of-work.js';
import type { UnitOfWorkDeps } from '../../unit-of-work.js';
import { addAlert } from './held-versions.js';
import type { UpstreamFailure } from './upstream.js';

/**
 * Successes within this interval after a written one are not written again (last_success_at is
 * that coarse); a failure in between makes the next success write, so recovery is never missed
 * by this process.
 */
const SUCCESS_WRITE_INTERVAL_MS = 5000;

/**
 * Whether the upstream answers, per tenant, shared by every node through the database. An
 * alert is written only by the one update that flips the state, so an outage raises one
 * `upstream_unreachable` alert whatever the number of failed requests or nodes, and its end one
 * `upstream_recovered`.
 */
export class UpstreamHealth {
  /** When this process last wrote a success per tenant: a burst of successes writes once. */
  private readonly lastSuccessWrite = new Map<string, number>();
  private readonly db: Db;

  constructor(
    private readonly deps: UnitOfWorkDeps,
    private readonly upstreamUrl: string,
  ) {
    this.db = deps.db;
  }

  /**
   * The one update that flips the state, its alert and its outbox event
   * (`proxy.upstream_unreachable` / `proxy.upstream_recovered`), in one unit: once per transition.
   */
  private flip(tenantId: string, to: 0 | 1, alert: (db: Db) => Promise<void>): Promise<boolean> {
    const system = { tenantId, actor: { kind: 'system' as const, id: null } };
    return transact(this.deps, system, async (tx) => {
      const flipped = await tx.db
        .updateTable('proxy_health')
        .set(
          to === 1 ? { reachable: 1, last_success_at: new Date().toISOString() } : { reachable: 0 },
        )
        .where('tenant_id', '=', tenantId)
        .where('reachable', '=', to === 1 ? 0 : 1)
        .executeTakeFirst();
      if (Number(flipped.numUpdatedRows) === 0) return false;
      await alert(tx.db);
      tx.emit(to === 1 ? 'proxy.upstream_recovered' : 'proxy.upstream_unreachable', {
        upstream_url: this.upstreamUrl,
      });
      return true;
    });
  }

  private async ensureRow(tenantId: string): Promise<void> {
    await this.db
      .insertInto('proxy_health')
      .values({
        tenant_id: tenantId,
        reachable: 1,
        last_success_at: null,
        last_error: null,
        last_error_at: null,
      })
      .onConflict((oc) => oc.column('tenant_id').doNothing())
      .execute();
  }

  async succeeded(tenantId: string): Promise<void> {
    const written = this.lastSuccessWrite.get(tenantId) ?? 0;
    if (Date.now() - written < SUCCESS_WRITE_INTERVAL_MS) return;
    this.lastSuccessWrite.set(tenantId, Date.now());
    await this.ensureRow(tenantId);
    const now = new Date().toISOString();
    const flipped = await this.flip(tenantId, 1, (db) =>
      addAlert(
        db,
        tenantId,
        'upstream_recovered',
        null,
        `The upstream ${this.upstreamUrl} answers again`,
      ),
    );
    if (flipped) return;
    await this.db
      .updateTable('proxy_health')
      .set({ last_success_at: now })
      .where('tenant_id', '=', tenantId)
      .execute();
  }

  async failed(tenantId: string, failure: UpstreamFailure, pkg: string | null): Promise<void> {
    this.lastSuccessWrite.delete(tenantId);
    await this.ensureRow(tenantId);
    const now = new Date().toISOString();
    await this.db
      .updateTable('proxy_health')
      .set({ last_error: failure.message, last_error_at: now })
      .where('tenant_id', '=', tenantId)
      .execute();
    if (failure.kind !== 'unreachable') return;
    await this.flip(tenantId, 0, (db) =>
      addAlert(
        db,
        tenantId,
        'upstream_unreachable',
        pkg,
        `The upstream ${this.upstreamUrl} is unreachable: ${failure.message}`,
      ),
    );
  }

  status(tenantId: string) {
    return this.db
      .selectFrom('proxy_health')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .executeTakeFirst();
  }
}
