import { transact } from '../../unit-of-work.js';
import type { Ctx, Deps } from '../../context.js';
import { AppError, invalid } from '../../errors.js';
import { validateInput } from '../../validation.js';
import { CHANGED_MEANWHILE } from '../customers/service.js';
import type { CustomerService } from '../customers/service.js';
import type { CustomerRow } from '../customers/store.js';
import type { WebhookResult } from '../webhooks/types.js';
import {
  ENDING_SUBSCRIPTION_STATUSES,
  PAID_INVOICE_EVENTS,
  PAID_SUBSCRIPTION_STATUSES,
  StripeEventSchema,
  SUBSCRIPTION_STATUS_EVENTS,
} from './schema.js';
import type { StripeEvent } from './schema.js';
import { notePaymentEvent } from './store.js';

/** What one Stripe event asks of a customer's access. */
type Decision =
  | { action: 'expire'; reason: string }
  | { action: 'reactivate' }
  | { action: 'none'; message: string };

/**
 * Stripe-driven customer access (docs/api.md), fed by the payment webhook: a Stripe
 * customer is the Packyard customer whose external_id is its `cus_…` id.
 */
export class BillingService {
  constructor(
    private readonly deps: Deps,
    private readonly customers: CustomerService,
  ) {}

  /** A verified payload as a Stripe event, or 400 VALIDATION_ERROR naming what is missing. */
  parseEvent(payload: unknown): StripeEvent {
    return validateInput(StripeEventSchema, payload, 'body');
  }

  /**
   * Applies one verified Stripe event. Events that change nothing (unknown customer, a status the
   * event may not change, an event type Packyard does not read) are `ignored` with the reason, so
   * Stripe gets a 200 and does not retry them.
   */
  async handleEvent(ctx: Ctx, event: StripeEvent): Promise<WebhookResult> {
    const decision = decide(event);
    if (decision.action === 'none') return { status: 'ignored', message: decision.message };

    const stripeCustomer = customerIdOf(event);
    let customer: CustomerRow;
    try {
      customer = await this.customers.getByExternalId(ctx, stripeCustomer);
    } catch (err) {
      if (err instanceof AppError && err.code === 'NOT_FOUND') {
        return { status: 'ignored', message: `no customer has external_id ${stripeCustomer}` };
      }
      throw err;
    }

    const object = event.data.object;
    const details: Record<string, unknown> = {
      stripe_event_id: event.id,
      stripe_event_type: event.type,
      stripe_customer: stripeCustomer,
    };
    if (typeof object.id === 'string') {
      details[`stripe_${typeof object.object === 'string' ? object.object : 'object'}`] = object.id;
    }
    if (typeof object.status === 'string' && event.type.startsWith('customer.subscription.')) {
      details.subscription_status = object.status;
    }
    // Stripe retries failed deliveries for days, in any order: an event older than one already
    // read for this customer must not undo it (a late `unpaid` after the invoice was paid).
    const createdAt =
      typeof event.created === 'number' ? new Date(event.created * 1000).toISOString() : null;
    // The mark moves in the same transaction as the status, and first: its UPDATE holds the
    // customer's row, so events of one customer apply one at a time, in the order of their marks.
    const outcome = await transact(this.deps, ctx, async ({ db: trx }): Promise<Outcome> => {
      if (createdAt && !(await notePaymentEvent(trx, ctx.tenantId, customer.id, createdAt))) {
        return { kind: 'stale', createdAt };
      }
      try {
        const change =
          decision.action === 'expire'
            ? await this.customers.paymentExpire(trx, ctx, customer.id, decision.reason, details)
            : await this.customers.paymentReactivate(trx, ctx, customer.id, details);
        return { kind: 'changed', from: change.from, to: change.row.status };
      } catch (err) {
        // The status may not move (already there, suspended, …): the mark still moves.
        if (
          err instanceof AppError &&
          err.code === 'CONFLICT' &&
          err.message !== CHANGED_MEANWHILE
        ) {
          return { kind: 'refused', why: err.message };
        }
        throw err;
      }
    });
    if (outcome.kind === 'stale') {
      return {
        status: 'ignored',
        message: `customer ${customer.id}: event created ${outcome.createdAt} is older than the last one read`,
      };
    }
    if (outcome.kind === 'refused') {
      return { status: 'ignored', message: `customer ${customer.id}: ${outcome.why}` };
    }
    return {
      status: 'processed',
      message: `customer ${customer.id}: ${outcome.from} -> ${outcome.to}`,
    };
  }
}

type Outcome =
  | { kind: 'stale'; createdAt: string }
  | { kind: 'refused'; why: string }
  | { kind: 'changed'; from: string; to: string };

function decide(event: StripeEvent): Decision {
  const { type } = event;
  const status = event.data.object.status;
  if (type === 'customer.subscription.deleted') {
    return { action: 'expire', reason: 'payment: subscription deleted' };
  }
  if (SUBSCRIPTION_STATUS_EVENTS.includes(type)) {
    if (typeof status !== 'string' || status === '') {
      throw invalid('data.object.status', 'a subscription event must carry the status');
    }
    if (ENDING_SUBSCRIPTION_STATUSES.includes(status)) {
      return { action: 'expire', reason: `payment: subscription ${status}` };
    }
    if (PAID_SUBSCRIPTION_STATUSES.includes(status)) return { action: 'reactivate' };
    return { action: 'none', message: `subscription status ${status} does not change access` };
  }
  if (PAID_INVOICE_EVENTS.includes(type)) return { action: 'reactivate' };
  return { action: 'none', message: `event type ${type} is not handled` };
}

/** The `cus_…` id the event is about, whether `customer` is the id or the expanded object. */
function customerIdOf(event: StripeEvent): string {
  const ref = event.data.object.customer;
  if (typeof ref === 'string' && ref !== '') return ref;
  const expanded = ref && typeof ref === 'object' ? (ref as { id?: unknown }).id : undefined;
  if (typeof expanded === 'string' && expanded !== '') return expanded;
  throw invalid('data.object.customer', 'must name the Stripe customer');
}
