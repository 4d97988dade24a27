import type { Ctx, Deps } from '../../context.js';
import { nowIso } from '../../context.js';
import { conflict, notFound } from '../../errors.js';
import { generateSecret, newId } from '../../infra/crypto.js';
import type { PageWindow } from '../../infra/db/page.js';
import type { SecretBox } from '../../infra/secret-box.js';
import { transact } from '../../unit-of-work.js';
import type { Tx } from '../../unit-of-work.js';
import { takeEventSeq } from '../events/record.js';
import { PING_EVENT, eventId } from '../events/types.js';
import { settingsBox } from '../settings/secret-key.js';
import { runChain, secretContext } from './delivery.js';
import { chainOf, deliveriesQueued, newDelivery, queueChains } from './fanout.js';
import type { CreateEndpointInput, UpdateEndpointInput } from './schema.js';
import * as store from './store.js';
import type { DeliveryRow, EndpointRow } from './store.js';
import { assertEndpointUrl } from './targets.js';

/** Outgoing webhooks (docs/webhooks-outgoing.md): endpoints, their deliveries, and sending them. */
export class OutgoingWebhookService {
  private box: Promise<SecretBox> | null = null;

  constructor(private readonly deps: Deps) {}

  private sealer = (): Promise<SecretBox> => {
    this.box ??= settingsBox(this.deps).catch((err: unknown) => {
      this.box = null;
      throw err;
    });
    return this.box;
  };

  list(ctx: Ctx, window: PageWindow) {
    return store.listEndpoints(this.deps.db, ctx.tenantId, window);
  }

  async get(ctx: Ctx, id: string): Promise<EndpointRow> {
    const row = await store.findEndpoint(this.deps.db, ctx.tenantId, id);
    if (!row) throw notFound('Webhook endpoint');
    return row;
  }

  /** The secret is returned here only (generated as `whsec_…` when none is given). */
  async create(
    ctx: Ctx,
    input: CreateEndpointInput,
  ): Promise<{ row: EndpointRow; secret: string }> {
    const url = await assertEndpointUrl(input.url, this.deps.config.edition);
    const secret = input.secret ?? generateSecret('whsec_');
    const now = nowIso();
    const id = newId();
    const row: EndpointRow = {
      tenant_id: ctx.tenantId,
      id,
      url,
      events: JSON.stringify(input.events),
      description: input.description ?? null,
      active: 1,
      secret_enc: (await this.sealer()).encrypt(
        secret,
        secretContext({ tenant_id: ctx.tenantId, id }),
      ),
      created_at: now,
      updated_at: now,
    };
    await transact(this.deps, ctx, async (tx) => {
      await store.insertEndpoint(tx.db, row);
      await tx.audit({
        action: 'webhook_endpoint.create',
        target: { type: 'webhook_endpoint', id },
        summary: { url, events: input.events },
      });
    });
    return { row, secret };
  }

  async update(ctx: Ctx, id: string, input: UpdateEndpointInput): Promise<EndpointRow> {
    const current = await this.get(ctx, id);
    const patch: Partial<EndpointRow> = { updated_at: nowIso() };
    if (input.url !== undefined) {
      patch.url = await assertEndpointUrl(input.url, this.deps.config.edition);
    }
    if (input.events !== undefined) patch.events = JSON.stringify(input.events);
    if (input.description !== undefined) patch.description = input.description;
    if (input.active !== undefined) patch.active = input.active ? 1 : 0;
    if (input.secret !== undefined) {
      patch.secret_enc = (await this.sealer()).encrypt(input.secret, secretContext(current));
    }
    await transact(this.deps, ctx, async (tx) => {
      await store.updateEndpoint(tx.db, ctx.tenantId, id, patch);
      if (patch.active === 1 && current.active !== 1) await this.requeuePending(tx, id);
      await tx.audit({
        action: 'webhook_endpoint.update',
        target: { type: 'webhook_endpoint', id },
        summary: { ...input, ...(input.secret !== undefined ? { secret: '[changed]' } : {}) },
      });
    });
    return { ...current, ...patch };
  }

  async delete(ctx: Ctx, id: string): Promise<void> {
    await transact(this.deps, ctx, async (tx) => {
      if (!(await store.deleteEndpoint(tx.db, ctx.tenantId, id))) {
        throw notFound('Webhook endpoint');
      }
      await tx.audit({
        action: 'webhook_endpoint.delete',
        target: { type: 'webhook_endpoint', id },
      });
    });
  }

  /** Newest first. */
  async deliveries(ctx: Ctx, id: string, window: PageWindow) {
    await this.get(ctx, id);
    return store.listDeliveries(this.deps.db, ctx.tenantId, id, window);
  }

  /** One more attempt of a delivery, now (after the chain's earlier pending ones). */
  async redeliver(ctx: Ctx, id: string, deliveryId: string): Promise<DeliveryRow> {
    await this.get(ctx, id);
    return transact(this.deps, ctx, async (tx) => {
      const row = await store.findDelivery(tx.db, ctx.tenantId, id, deliveryId);
      if (!row) throw notFound('Webhook delivery');
      const now = nowIso();
      const changes = {
        status: 'pending',
        max_attempts: Math.max(row.max_attempts, row.attempts + 1),
        next_attempt_at: now,
      };
      if (!(await store.reopenDelivery(tx.db, row, changes))) {
        throw conflict('The delivery is being attempted right now; try again in a moment');
      }
      await queueChains(tx.db, ctx.tenantId, [{ endpointId: id, chain: row.chain }], now);
      this.wakeAfter(tx);
      await tx.audit({
        action: 'webhook_endpoint.redeliver',
        target: { type: 'webhook_endpoint', id },
        summary: { delivery: deliveryId, event: row.event_id },
      });
      return { ...row, ...changes };
    });
  }

  /** A `ping` event (`data: {}`) to this endpoint alone; not written to the feed. */
  async ping(ctx: Ctx, id: string): Promise<DeliveryRow> {
    const endpoint = await this.get(ctx, id);
    return transact(this.deps, ctx, async (tx) => {
      const seq = await takeEventSeq(tx.db, ctx.tenantId, 1);
      const now = nowIso();
      const deliveryId = newId();
      const event = { id: eventId(seq), type: PING_EVENT, created_at: now, data: {} };
      const row = newDelivery(
        ctx.tenantId,
        deliveryId,
        endpoint.id,
        event,
        chainOf(null, deliveryId),
        now,
      );
      await store.insertDelivery(tx.db, row);
      await queueChains(tx.db, ctx.tenantId, [{ endpointId: endpoint.id, chain: row.chain }], now);
      this.wakeAfter(tx);
      return row;
    });
  }

  /** The `webhook.deliver` task's handler. */
  runChain(tenantId: string, payload: Record<string, unknown>, signal?: AbortSignal) {
    return runChain(
      this.deps,
      this.sealer,
      tenantId,
      { endpoint_id: String(payload.endpoint_id), chain: String(payload.chain) },
      signal,
    );
  }

  /** Deletes finished deliveries older than EVENT_RETENTION_DAYS; returns how many. */
  applyRetention(tenantId: string): Promise<number> {
    const days = this.deps.config.eventRetentionDays;
    const cutoff = new Date(Date.now() - days * 86_400_000).toISOString();
    return store.deleteDeliveriesBefore(this.deps.db, tenantId, cutoff);
  }

  /** A reactivated endpoint's pending deliveries go out again. */
  private async requeuePending(tx: Tx, endpointId: string): Promise<void> {
    const chains = await store.pendingChains(tx.db, tx.ctx.tenantId, endpointId);
    if (chains.length === 0) return;
    await queueChains(
      tx.db,
      tx.ctx.tenantId,
      chains.map((c) => ({ endpointId, chain: c.chain })),
      nowIso(),
    );
    this.wakeAfter(tx);
  }

  private wakeAfter(tx: Tx): void {
    tx.afterCommit(() => {
      deliveriesQueued.emit(this.deps.db);
    });
  }
}
