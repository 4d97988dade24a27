import crypto from 'node:crypto';
import type { Ctx, Deps } from '../../context.js';
import { nowIso } from '../../context.js';
import { AppError, featureNotAvailable, unauthorized } from '../../errors.js';
import { sortableId } from '../../infra/crypto.js';
import * as store from './store.js';
import { transact } from '../../unit-of-work.js';
import type { WebhookAdapter, WebhookHeaders, WebhookProvider, WebhookResult } from './types.js';
import { header } from './types.js';
import { WindowCounter } from '../../infra/window-counter.js';
import type { SettingsService } from '../settings/service.js';

/** What the sender gets back, and what is recorded. */
export interface DeliveryOutcome {
  id: string;
  provider: WebhookProvider;
  event: string;
  delivery_id: string | null;
  status: 'queued' | 'processed' | 'ignored' | 'duplicate';
  packages: string[];
  message: string | null;
}

type RecordedStatus = DeliveryOutcome['status'] | 'rejected' | 'failed';

/**
 * Refused attempts recorded per sender address and minute; past it they are still refused (401)
 * but not stored, so a flood of unsigned requests cannot fill the table. Signed deliveries are
 * never limited: GitHub does not redeliver a refused delivery by itself.
 */
export const REJECTED_RECORDS_PER_MINUTE = 30;

/** Longer sender ids are stored as their digest, so any id fits the column and still dedupes. */
const MAX_DELIVERY_ID = 200;

function storedDeliveryId(id: string | null): string | null {
  if (id === null || id.length <= MAX_DELIVERY_ID) return id;
  return `sha256:${crypto.createHash('sha256').update(id).digest('hex')}`;
}

/**
 * The JSON payload of a verified body. GitHub's form encoding (`payload=<json>`, its default
 * content type) is accepted too: the signature covers the raw bytes either way.
 */
function parsePayload(rawBody: Buffer, headers: WebhookHeaders): unknown {
  const text = rawBody.toString('utf8');
  const type = header(headers, 'content-type') ?? '';
  if (type.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    const payload = new URLSearchParams(text).get('payload');
    if (payload === null) throw new SyntaxError('no payload field');
    return JSON.parse(payload);
  }
  return JSON.parse(text);
}

/**
 * Receives inbound webhooks: checks the signature over the raw body before reading it, ignores
 * replays of a delivery id, hands the event to the provider's adapter, and records every delivery.
 */
export class WebhookService {
  private adapters: Partial<Record<WebhookProvider, WebhookAdapter>> = {};
  // Rejected deliveries per tenant and sender in the current minute: only the first few are recorded.
  private readonly rejections = new WindowCounter(60_000);

  constructor(
    private readonly deps: Deps,
    private readonly settings: Pick<SettingsService, 'webhookSecret'>,
  ) {}

  /** Set once by createServices: adapters need the other services. */
  useAdapters(adapters: Record<WebhookProvider, WebhookAdapter>): void {
    this.adapters = adapters;
  }

  async receive(
    ctx: Ctx,
    provider: WebhookProvider,
    rawBody: Buffer,
    headers: WebhookHeaders,
    /** The connection's address (not X-Forwarded-For, which a sender can set at will). */
    sender = 'unknown',
  ): Promise<DeliveryOutcome> {
    const started = performance.now();
    const adapter = this.adapters[provider];
    const secret = await this.secretOf(ctx.tenantId, provider);
    if (!adapter || secret === null) {
      throw featureNotAvailable(`The ${provider} webhook is not configured on this server`);
    }
    // Time-ordered, so deliveries received in the same millisecond still list newest first.
    const id = sortableId();
    const receivedAt = nowIso();
    let event = adapter.eventOf(headers).slice(0, 128) || 'unknown';
    let deliveryId: string | null = null;
    const record = async (
      status: RecordedStatus,
      message: string | null,
      packageIds: string[] = [],
    ): Promise<string[]> => {
      const names = await store.packageNames(this.deps.db, ctx.tenantId, packageIds);
      const row: store.DeliveryRow = {
        id,
        tenant_id: ctx.tenantId,
        provider,
        event,
        delivery_id: deliveryId,
        signature_ok: status === 'rejected' ? 0 : 1,
        status,
        message: message?.slice(0, 500) ?? null,
        matched_packages: JSON.stringify(names),
        duration_ms: Math.round(performance.now() - started),
        received_at: receivedAt,
      };
      await transact(this.deps, ctx, ({ db }) => store.insertDelivery(db, row, packageIds));
      return names;
    };
    const answer = async (
      status: DeliveryOutcome['status'],
      message: string | null,
      packageIds: string[] = [],
    ): Promise<DeliveryOutcome> => {
      const packages = await record(status, message, packageIds);
      return { id, provider, event, delivery_id: deliveryId, status, packages, message };
    };

    if (!adapter.verify(rawBody, headers, secret)) {
      // Recorded without packages (nothing was read), so operators see a misconfigured secret.
      const seen = this.rejections.hit(`${ctx.tenantId}\n${sender}`).current;
      if (seen <= REJECTED_RECORDS_PER_MINUTE) {
        await record('rejected', 'missing or invalid signature');
      }
      throw unauthorized('Missing or invalid webhook signature');
    }

    let payload: unknown;
    try {
      payload = parsePayload(rawBody, headers);
    } catch {
      const hint = 'the body is not JSON: set the webhook content type to application/json';
      await record('failed', hint);
      throw new AppError('VALIDATION_ERROR', `The webhook body is not valid JSON`, [
        { field: 'body', message: hint },
      ]);
    }
    event = adapter.eventOf(headers, payload).slice(0, 128) || 'unknown';
    deliveryId = storedDeliveryId(adapter.deliveryIdOf(headers, payload));
    if (
      deliveryId !== null &&
      !(await store.claimReceipt(this.deps.db, ctx.tenantId, provider, deliveryId, receivedAt))
    ) {
      return answer('duplicate', 'already processed');
    }

    let result: WebhookResult;
    try {
      result = await adapter.handle(ctx, event, payload);
    } catch (err) {
      // Let the sender's retry through: it was not processed.
      if (deliveryId !== null) {
        await store.releaseReceipt(this.deps.db, ctx.tenantId, provider, deliveryId);
      }
      await record('failed', (err as Error).message);
      throw err;
    }
    return answer(result.status, result.message ?? null, result.packageIds ?? []);
  }

  /**
   * The secret a delivery is checked with: the tenant's own (GET/PATCH /settings), else outside
   * Cloud the environment's. The GitHub App is one per deployment: its secret is the server's.
   */
  private async secretOf(tenantId: string, provider: WebhookProvider): Promise<string | null> {
    const fallback = this.deps.config.webhookSecrets[provider];
    if (provider === 'hostapp') return fallback;
    const name = provider === 'payment' ? 'stripe' : provider;
    return this.settings.webhookSecret(tenantId, name, fallback);
  }
}
