import crypto from 'node:crypto';
import { nowIso } from '../../context.js';
import { newId } from '../../infra/crypto.js';
import type { Db } from '../../infra/db/connection.js';
import { forTenant } from '../../infra/db/tenant-scope.js';
import type { EventDto } from '../events/types.js';

/** The task that sends one chain's pending deliveries, in event order (a worker runs it). */
export const OUTGOING_WEBHOOK_TASK = 'webhook.deliver';
/** Attempts in all, the first included, before a delivery is `failed`. */
export const DELIVERY_ATTEMPTS = 8;

/** Who hears, per database handle, that a committed unit queued deliveries. */
const listeners = new WeakMap<Db, Set<() => void>>();

/**
 * Told after a unit of work that queued deliveries (or other event work) commits: the workers
 * of the process that use `db` listen, so a delivery starts without waiting for their next poll.
 * Keyed by the handle, so an app's listener goes with its database.
 */
export const deliveriesQueued = {
  on(db: Db, listener: () => void): void {
    let set = listeners.get(db);
    if (!set) listeners.set(db, (set = new Set()));
    set.add(listener);
  },
  emit(db: Db): void {
    for (const listener of listeners.get(db) ?? []) listener();
  },
};

/**
 * Deliveries of one endpoint go out in order within a chain: the events of one package share a
 * chain (a later one waits for an earlier pending one, retries included); any other event is a
 * chain of its own.
 */
export function chainOf(pkg: string | null, deliveryId: string): string {
  return pkg ? `p:${pkg}` : `d:${deliveryId}`;
}

function dedupeKey(endpointId: string, chain: string): string {
  const digest = crypto.createHash('sha1').update(`${endpointId}\n${chain}`).digest('hex');
  return `owh:${digest}`;
}

/**
 * In the event's transaction: a delivery for each active endpoint of the tenant subscribed to
 * the event's type, and a task for each chain that has none pending. True when any was made.
 */
export async function queueDeliveries(
  db: Db,
  tenantId: string,
  events: readonly (EventDto & { package: string | null })[],
): Promise<boolean> {
  const endpoints = await forTenant(db, tenantId)
    .selectFrom('webhook_endpoints')
    .select(['id', 'events'])
    .where('tenant_id', '=', tenantId)
    .where('active', '=', 1)
    .execute();
  if (endpoints.length === 0) return false;
  const now = nowIso();
  const deliveries = [];
  for (const endpoint of endpoints) {
    const types = new Set(JSON.parse(endpoint.events) as string[]);
    for (const event of events) {
      if (!types.has(event.type)) continue;
      const id = newId();
      deliveries.push(
        newDelivery(tenantId, id, endpoint.id, event, chainOf(event.package, id), now),
      );
    }
  }
  if (deliveries.length === 0) return false;
  for (let i = 0; i < deliveries.length; i += 200) {
    await db
      .insertInto('webhook_event_deliveries')
      .values(deliveries.slice(i, i + 200))
      .execute();
  }
  const chains = new Map(deliveries.map((d) => [dedupeKey(d.endpoint_id, d.chain), d]));
  await queueChains(
    db,
    tenantId,
    [...chains.values()].map((d) => ({ endpointId: d.endpoint_id, chain: d.chain })),
    now,
  );
  return true;
}

export function newDelivery(
  tenantId: string,
  id: string,
  endpointId: string,
  event: EventDto,
  chain: string,
  now: string,
) {
  const { id: eventIdValue, type, created_at, data } = event;
  return {
    tenant_id: tenantId,
    id,
    endpoint_id: endpointId,
    event_id: eventIdValue,
    event_type: type,
    chain,
    payload: JSON.stringify({ id: eventIdValue, type, created_at, data }),
    status: 'pending',
    attempts: 0,
    max_attempts: DELIVERY_ATTEMPTS,
    response_status: null,
    response_body: null,
    error: null,
    duration_ms: null,
    created_at: now,
    next_attempt_at: now,
    last_attempt_at: null,
  };
}

/**
 * A pending task for each chain that has none, runnable at `runAfter` (a pending one that waits
 * longer is moved up to it). A running task does not count: it may have read its chain already.
 */
export async function queueChains(
  db: Db,
  tenantId: string,
  chains: readonly { endpointId: string; chain: string }[],
  runAfter: string,
): Promise<void> {
  const keyed = new Map(chains.map((c) => [dedupeKey(c.endpointId, c.chain), c]));
  const keys = [...keyed.keys()];
  const tasks = forTenant(db, tenantId);
  for (let i = 0; i < keys.length; i += 200) {
    const batch = keys.slice(i, i + 200);
    const pending = await tasks
      .selectFrom('tasks')
      .select(['id', 'dedupe_key', 'run_after'])
      .where('tenant_id', '=', tenantId)
      .where('dedupe_key', 'in', batch)
      .where('status', '=', 'pending')
      .execute();
    const have = new Set(pending.map((p) => p.dedupe_key));
    const later = pending.filter((p) => p.run_after > runAfter).map((p) => p.id);
    if (later.length > 0) {
      await tasks
        .updateTable('tasks')
        .set({ run_after: runAfter })
        .where('tenant_id', '=', tenantId)
        .where('id', 'in', later)
        .where('status', '=', 'pending')
        .execute();
    }
    const rows = batch
      .filter((key) => !have.has(key))
      .map((key) => {
        const c = keyed.get(key)!;
        return {
          id: newId(),
          tenant_id: tenantId,
          type: OUTGOING_WEBHOOK_TASK,
          payload: JSON.stringify({ endpoint_id: c.endpointId, chain: c.chain }),
          status: 'pending',
          attempts: 0,
          error: null,
          result: null,
          dedupe_key: key,
          created_at: nowIso(),
          started_at: null,
          finished_at: null,
          locked_by: null,
          lease_expires_at: null,
          run_after: runAfter,
        };
      });
    if (rows.length > 0) await db.insertInto('tasks').values(rows).execute();
  }
}
