import { Type } from 'typebox';
import type { Static } from 'typebox';

/**
 * The envelope of a Stripe event (https://docs.stripe.com/api/events/object). Stripe adds fields
 * over API versions, so unknown fields are allowed here, unlike in admin bodies; what an event's
 * object must carry is checked only for the event types Packyard acts on (an event it ignores is
 * never refused for its object's shape).
 */
export const StripeEventSchema = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 255 }),
  object: Type.Optional(Type.Literal('event')),
  type: Type.String({ minLength: 1, maxLength: 128 }),
  created: Type.Optional(Type.Integer()),
  livemode: Type.Optional(Type.Boolean()),
  data: Type.Object({ object: Type.Record(Type.String(), Type.Unknown()) }),
});
export type StripeEvent = Static<typeof StripeEventSchema>;

/** Subscription statuses that end access, like a deleted subscription. */
export const ENDING_SUBSCRIPTION_STATUSES: readonly string[] = [
  'unpaid',
  'canceled',
  'incomplete_expired',
  'paused',
];

/** Subscription statuses that mean the customer pays (or is in a trial): access again. */
export const PAID_SUBSCRIPTION_STATUSES: readonly string[] = ['active', 'trialing'];

/** Subscription events read by their subscription's status. */
export const SUBSCRIPTION_STATUS_EVENTS: readonly string[] = [
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.resumed',
];

/** Invoice events that mean a payment went through. */
export const PAID_INVOICE_EVENTS: readonly string[] = ['invoice.paid', 'invoice.payment_succeeded'];
