import type { WebhookAdapterFactory } from '../webhooks/types.js';
import { header } from '../webhooks/types.js';
import { verifyStripeSignature } from '../webhooks/signatures.js';
import type { BillingService } from './service.js';

/** Stripe: Stripe-Signature (t=…,v1=…), the event id as delivery id, type in the body. */
export const paymentAdapter: WebhookAdapterFactory<
  Pick<BillingService, 'handleEvent' | 'parseEvent'>
> = (billing) => ({
  verify: (body, headers, secret) =>
    verifyStripeSignature(body, header(headers, 'stripe-signature'), secret),
  // Stripe names the event in the body only.
  eventOf: (_headers, payload) => {
    const type = (payload as { type?: unknown } | null | undefined)?.type;
    return typeof type === 'string' && type !== '' ? type : 'stripe';
  },
  deliveryIdOf: (_headers, payload) => {
    const id = (payload as { id?: unknown } | null)?.id;
    return typeof id === 'string' && id !== '' ? id : null;
  },
  // Subscription and invoice events -> customer status (docs/api.md).
  handle: async (ctx, _event, payload) => billing.handleEvent(ctx, billing.parseEvent(payload)),
});
