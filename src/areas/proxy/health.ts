import type { Db } from '../../infra/db/connection.js';
import { addAlert } from './store.js';
import type { UpstreamFailure } from './upstream.js';

/**
 * Whether the upstream answers, per tenant, shared by every node through the database. An
 * alert is written only by the one update that flips the state, so an outage raises one
 * `upstream_unreachable` alert whatever the number of failed requests or nodes, and its end one
 * `upstream_recovered`.
 */
export class UpstreamHealth {
  constructor(
    private readonly db: Db,
    private readonly upstreamUrl: string,
  ) {}

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
    await this.ensureRow(tenantId);
    const now = new Date().toISOString();
    const flipped = await this.db
      .updateTable('proxy_health')
      .set({ reachable: 1, last_success_at: now })
      .where('tenant_id', '=', tenantId)
      .where('reachable', '=', 0)
      .executeTakeFirst();
    if (Number(flipped.numUpdatedRows) > 0) {
      await addAlert(
        this.db,
        tenantId,
        'upstream_recovered',
        null,
        `The upstream ${this.upstreamUrl} answers again`,
      );
      return;
    }
    await this.db
      .updateTable('proxy_health')
      .set({ last_success_at: now })
      .where('tenant_id', '=', tenantId)
      .execute();
  }

  async failed(tenantId: string, failure: UpstreamFailure, pkg: string | null): Promise<void> {
    await this.ensureRow(tenantId);
    const now = new Date().toISOString();
    await this.db
      .updateTable('proxy_health')
      .set({ last_error: failure.message, last_error_at: now })
      .where('tenant_id', '=', tenantId)
      .execute();
    if (failure.kind !== 'unreachable') return;
    const flipped = await this.db
      .updateTable('proxy_health')
      .set({ reachable: 0 })
      .where('tenant_id', '=', tenantId)
      .where('reachable', '=', 1)
      .executeTakeFirst();
    if (Number(flipped.numUpdatedRows) > 0) {
      await addAlert(
        this.db,
        tenantId,
        'upstream_unreachable',
        pkg,
        `The upstream ${this.upstreamUrl} is unreachable: ${failure.message}`,
      );
    }
  }

  status(tenantId: string) {
    return this.db
      .selectFrom('proxy_health')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .executeTakeFirst();
  }
}
