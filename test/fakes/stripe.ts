import crypto from 'node:crypto';

/**
 * Stripe's side of the payment webhook: events shaped as Stripe sends them (API version
 * 2024-06-20), signed as Stripe signs them (`Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret,
 * "<t>.<raw body>")>`), and delivered as Stripe delivers them (a JSON POST from `Stripe/1.0`).
 */

export const STRIPE_API_VERSION = '2024-06-20';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A Stripe-looking id: `evt_1Q…`, `sub_1Q…`, `cus_Q…`. */
export function stripeId(prefix: string, length = 24): string {
  const bytes = crypto.randomBytes(length);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return `${prefix}_${out}`;
}

const now = () => Math.floor(Date.now() / 1000);

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

export type SubscriptionStatus =
  | 'incomplete'
  | 'incomplete_expired'
  | 'trialing'
  | 'active'
  | 'past_due'
  | 'canceled'
  | 'unpaid'
  | 'paused';

/** A subscription object; `customer` is the `cus_…` id unless an expanded customer is given. */
export function subscription(
  customer: string | Record<string, unknown>,
  status: SubscriptionStatus,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const id = stripeId('sub');
  const start = now() - 30 * 86400;
  const ended = status === 'canceled' || status === 'incomplete_expired';
  return {
    id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { enabled: false, liability: null },
    billing_cycle_anchor: start,
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: ended ? now() : null,
    cancellation_details: {
      comment: null,
      feedback: null,
      reason: ended ? 'cancellation_requested' : null,
    },
    collection_method: 'charge_automatically',
    created: start,
    currency: 'eur',
    current_period_end: start + 30 * 86400,
    current_period_start: start,
    customer,
    days_until_due: null,
    default_payment_method: stripeId('pm'),
    description: null,
    discount: null,
    discounts: [],
    ended_at: ended ? now() : null,
    items: {
      object: 'list',
      data: [
        {
          id: stripeId('si', 14),
          object: 'subscription_item',
          created: start,
          metadata: {},
          price: {
            id: stripeId('price'),
            object: 'price',
            active: true,
            currency: 'eur',
            product: stripeId('prod', 14),
            recurring: { interval: 'month', interval_count: 1, usage_type: 'licensed' },
            type: 'recurring',
            unit_amount: 4900,
          },
          quantity: 1,
          subscription: id,
        },
      ],
      has_more: false,
      total_count: 1,
      url: `/v1/subscription_items?subscription=${id}`,
    },
    latest_invoice: stripeId('in'),
    livemode: false,
    metadata: {},
    pause_collection: null,
    start_date: start,
    status,
    trial_end: null,
    trial_start: null,
    ...overrides,
  };
}

/** A paid invoice of a subscription. */
export function invoice(
  customer: string | Record<string, unknown>,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const id = stripeId('in');
  const created = now();
  return {
    id,
    object: 'invoice',
    account_country: 'DE',
    account_name: 'Acme Packages GmbH',
    amount_due: 4900,
    amount_paid: 4900,
    amount_remaining: 0,
    attempt_count: 1,
    attempted: true,
    auto_advance: false,
    billing_reason: 'subscription_cycle',
    charge: stripeId('ch'),
    collection_method: 'charge_automatically',
    created,
    currency: 'eur',
    customer,
    customer_email: 'billing@customer.test',
    hosted_invoice_url: `https://invoice.stripe.com/i/acct_1Nv0FGQ9RKHgCVdK/test_${id}`,
    lines: {
      object: 'list',
      data: [],
      has_more: false,
      total_count: 0,
      url: `/v1/invoices/${id}/lines`,
    },
    livemode: false,
    metadata: {},
    number: `ACME-${String(crypto.randomInt(1, 9999)).padStart(4, '0')}`,
    paid: true,
    paid_out_of_band: false,
    payment_intent: stripeId('pi'),
    period_end: created,
    period_start: created - 30 * 86400,
    status: 'paid',
    status_transitions: { finalized_at: created, paid_at: created, voided_at: null },
    subscription: stripeId('sub'),
    subtotal: 4900,
    total: 4900,
    ...overrides,
  };
}

/** An event wrapping `object`, as Stripe sends it to a webhook endpoint. */
export function stripeEvent(
  type: string,
  object: Record<string, unknown>,
  previousAttributes?: Record<string, unknown>,
): StripeEvent {
  return {
    id: stripeId('evt'),
    object: 'event',
    api_version: STRIPE_API_VERSION,
    created: now(),
    data: previousAttributes ? { object, previous_attributes: previousAttributes } : { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

/** `t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`. */
export function stripeSignature(secret: string, body: string, timestamp = now()): string {
  const v1 = crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

export interface DeliveryOptions {
  secret: string;
  /** Unix seconds of the signature (default now); an old one is outside the tolerance. */
  timestamp?: number;
  /** Replaces the computed Stripe-Signature; null sends none. */
  signature?: string | null;
}

/** The raw body and headers of one delivery (Stripe pretty-prints its JSON). */
export function stripeRequest(
  event: unknown,
  { secret, timestamp, signature }: DeliveryOptions,
): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify(event, null, 2);
  const sig = signature === undefined ? stripeSignature(secret, body, timestamp) : signature;
  return {
    body,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      'cache-control': 'no-cache',
      accept: '*/*; q=0.5, application/xml',
      ...(sig === null ? {} : { 'stripe-signature': sig }),
    },
  };
}

/** POSTs the event to a webhook endpoint over HTTP, as Stripe does; returns status and answer. */
export async function deliver(
  url: string,
  event: unknown,
  options: DeliveryOptions,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const { body, headers } = stripeRequest(event, options);
  const res = await fetch(url, { method: 'POST', headers, body });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}
