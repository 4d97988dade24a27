import type { Deps } from '../../context.js';
import type { SecretBox } from '../../infra/secret-box.js';
import { transact } from '../../unit-of-work.js';
import { systemCtx } from '../tasks/system-ctx.js';
import { queueChains } from './fanout.js';
import { send, signature } from './sender.js';
import * as store from './store.js';
import type { DeliveryRow, EndpointRow } from './store.js';

/** One task sends at most this many deliveries, or for this long, then queues its follow-up. */
const MAX_PER_TASK = 50;
const TASK_BUDGET_MS = 5000;

export function secretContext(row: Pick<EndpointRow, 'tenant_id' | 'id'>): string {
  return `webhook-endpoint:${row.tenant_id}:${row.id}`;
}

/**
 * The `webhook.deliver` task: sends one chain's pending deliveries to one endpoint in event
 * order. The chain's first pending delivery goes first; while it waits for its retry, the
 * chain waits with it (the follow-up task runs at its retry time).
 */
export async function runChain(
  deps: Deps,
  box: () => Promise<SecretBox>,
  tenantId: string,
  payload: { endpoint_id: string; chain: string },
  signal?: AbortSignal,
): Promise<{ sent: number }> {
  const { db, config } = deps;
  const started = Date.now();
  let sent = 0;
  const followUp = (at: string) =>
    transact(deps, systemCtx(tenantId), (tx) =>
      queueChains(tx.db, tenantId, [{ endpointId: payload.endpoint_id, chain: payload.chain }], at),
    );
  for (;;) {
    signal?.throwIfAborted();
    const endpoint = await store.findEndpoint(db, tenantId, payload.endpoint_id);
    // A paused endpoint keeps its deliveries pending: reactivating it queues them again.
    if (!endpoint || endpoint.active !== 1) return { sent };
    const head = await store.chainHead(db, tenantId, endpoint.id, payload.chain);
    if (!head) return { sent };
    const now = new Date();
    if (head.attempts >= head.max_attempts) {
      // Its last attempt was taken by a worker that died before recording it.
      await store.recordAttempt(db, head, head.attempts, {
        status: 'failed',
        next_attempt_at: null,
      });
      continue;
    }
    if (head.next_attempt_at && head.next_attempt_at > now.toISOString()) {
      await followUp(head.next_attempt_at);
      return { sent };
    }
    if (sent >= MAX_PER_TASK || Date.now() - started > TASK_BUDGET_MS) {
      await followUp(now.toISOString());
      return { sent };
    }
    const attempt = head.attempts + 1;
    const retryAt = new Date(now.getTime() + config.outgoingWebhookRetryMs * 2 ** (attempt - 1));
    if (!(await store.takeAttempt(db, head, now.toISOString(), retryAt.toISOString()))) continue;
    const secret = (await box()).decrypt(endpoint.secret_enc, secretContext(endpoint));
    await attemptOnce(deps, endpoint, head, attempt, secret);
    sent += 1;
  }
}

async function attemptOnce(
  deps: Deps,
  endpoint: EndpointRow,
  row: DeliveryRow,
  attempt: number,
  secret: string,
): Promise<void> {
  const body = row.payload;
  const t = Math.floor(Date.now() / 1000);
  const result = await send(
    endpoint.url,
    body,
    {
      'packyard-event': row.event_type,
      'packyard-delivery': row.id,
      'packyard-signature': signature(secret, body, t),
    },
    {
      timeoutMs: deps.config.outgoingWebhookTimeoutMs,
      publicOnly: deps.config.edition === 'cloud',
    },
  );
  const ok = result.error === null;
  const last = attempt >= row.max_attempts;
  await store.recordAttempt(deps.db, row, attempt, {
    status: ok ? 'succeeded' : last ? 'failed' : 'pending',
    response_status: result.status,
    response_body: result.body,
    error: result.error,
    duration_ms: result.durationMs,
    ...(ok || last ? { next_attempt_at: null } : {}),
  });
}
