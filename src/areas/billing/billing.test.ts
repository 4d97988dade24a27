import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { addSyncedPackage, adminApi } from '../../../test/factories.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import {
  invoice,
  stripeEvent,
  stripeId,
  stripeRequest,
  subscription,
} from '../../../test/fakes/stripe.js';
import type { DeliveryOptions } from '../../../test/fakes/stripe.js';
import type { DomainEvent } from '../../infra/events.js';

const SECRET = 'whsec_test_0123456789abcdefghijklmnop';

let t: TestApp;
let lib: GitFixture;
const events: DomainEvent[] = [];

beforeAll(async () => {
  t = await createTestApp({ STRIPE_WEBHOOK_SECRET: SECRET });
  t.runtime.services.deps.events.subscribe((e) => events.push(e));
  lib = new GitFixture('acme/lib');
  lib.release('1.0.0').release('1.1.0');
  await addSyncedPackage(t, 'acme/lib', lib.url);
});
afterAll(async () => {
  await t.close();
  lib.remove();
});

const api = (method: string, url: string, payload?: unknown) => adminApi(t)(method, url, payload);

/** Stripe posting one event to the payment route. */
async function send(event: unknown, options: Partial<DeliveryOptions> = {}) {
  const { body, headers } = stripeRequest(event, { secret: SECRET, ...options });
  return t.app.inject({ method: 'POST', url: '/api/webhooks/payment', payload: body, headers });
}

/** A customer whose external_id is a fresh Stripe customer id. */
async function stripeCustomer(extra: Record<string, unknown> = {}) {
  const cus = stripeId('cus', 14);
  const customer = await api('POST', '/api/v1/customers', {
    name: `Customer ${cus}`,
    email: `${cus.toLowerCase()}@customer.test`,
    external_id: cus,
    ...extra,
  });
  return { cus, id: customer.id as string };
}

const status = async (id: string) =>
  (await api('GET', `/api/v1/customers/${id}`)) as {
    status: string;
    status_reason: string | null;
  };

const auditOf = async (id: string) =>
  (await api('GET', `/api/v1/audit?target=${id}&per_page=100`)).data as {
    action: string;
    actor: { kind: string; id: string | null };
    summary: Record<string, unknown>;
  }[];

const statusSource = async (id: string) =>
  (
    await t.db
      .selectFrom('customers')
      .select('status_source')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).status_source;

const statusChanges = (id: string) =>
  events.filter(
    (e) => e.type === 'customer.activity' && e.customerId === id && e.activity === 'STATUS_CHANGED',
  ).length;

describe('the Stripe payment webhook', () => {
  it('expires a customer whose subscription is deleted, and a paid invoice brings it back', async () => {
    const { cus, id } = await stripeCustomer();
    const deleted = stripeEvent('customer.subscription.deleted', subscription(cus, 'canceled'));
    const res = await send(deleted);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      provider: 'payment',
      event: 'customer.subscription.deleted',
      delivery_id: deleted.id,
      status: 'processed',
      message: `customer ${id}: ACTIVE -> EXPIRED`,
    });
    expect(await status(id)).toMatchObject({
      status: 'EXPIRED',
      status_reason: 'payment: subscription deleted',
    });
    expect(await statusSource(id)).toBe('payment');
    expect(statusChanges(id)).toBe(1);
    const [expire] = await auditOf(id);
    expect(expire).toMatchObject({
      action: 'customer.payment_expire',
      actor: { kind: 'webhook', id: 'payment' },
      summary: {
        from: 'ACTIVE',
        to: 'EXPIRED',
        reason: 'payment: subscription deleted',
        stripe_event_id: deleted.id,
        stripe_event_type: 'customer.subscription.deleted',
        stripe_customer: cus,
      },
    });

    const paid = stripeEvent('invoice.paid', invoice(cus));
    const again = await send(paid);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ status: 'processed', delivery_id: paid.id });
    expect(await status(id)).toMatchObject({ status: 'ACTIVE', status_reason: null });
    expect(statusChanges(id)).toBe(2);
    const audit = await auditOf(id);
    expect(audit.map((a) => a.action)).toEqual([
      'customer.payment_reactivate',
      'customer.payment_expire',
      'customer.create',
    ]);
    expect(audit[0]?.summary).toMatchObject({
      from: 'EXPIRED',
      to: 'ACTIVE',
      stripe_event_id: paid.id,
      stripe_event_type: 'invoice.paid',
    });
  });

  it('ignores a late retry of an event older than one already read for the customer', async () => {
    const { cus, id } = await stripeCustomer();
    const at = (secondsAgo: number) => Math.floor(Date.now() / 1000) - secondsAgo;
    const deleted = {
      ...stripeEvent('customer.subscription.deleted', subscription(cus, 'canceled')),
      created: at(7200),
    };
    const unpaid = {
      ...stripeEvent('customer.subscription.updated', subscription(cus, 'unpaid')),
      created: at(3600),
    };
    const paid = { ...stripeEvent('invoice.paid', invoice(cus)), created: at(0) };
    expect((await send(deleted)).json().status).toBe('processed');
    expect((await send(paid)).json().status).toBe('processed');
    // Stripe retries the unpaid event it could not deliver an hour ago.
    const late = await send(unpaid);
    expect(late.statusCode).toBe(200);
    expect(late.json()).toMatchObject({ status: 'ignored' });
    expect(late.json().message).toContain('older than the last one read');
    expect(await status(id)).toMatchObject({ status: 'ACTIVE' });
  });

  it('lets the newer of two events arriving together decide, whichever is applied first', async () => {
    const at = (secondsAgo: number) => Math.floor(Date.now() / 1000) - secondsAgo;
    const customers = await Promise.all(Array.from({ length: 6 }, () => stripeCustomer()));
    for (const { cus } of customers) {
      const deleted = stripeEvent('customer.subscription.deleted', subscription(cus, 'canceled'));
      expect((await send({ ...deleted, created: at(7200) })).json().status).toBe('processed');
    }
    // Stripe delivers an old invoice.paid retry and the newer unpaid update at the same moment.
    await Promise.all(
      customers.flatMap(({ cus }) => [
        send({ ...stripeEvent('invoice.paid', invoice(cus)), created: at(3600) }),
        send({
          ...stripeEvent('customer.subscription.updated', subscription(cus, 'unpaid')),
          created: at(60),
        }),
      ]),
    );
    for (const { id } of customers) expect((await status(id)).status).toBe('EXPIRED');
  });

  it('reads subscription.updated/created by status, with the customer as id or expanded object', async () => {
    const { cus, id } = await stripeCustomer();
    const expanded = { id: cus, object: 'customer', email: 'x@customer.test' };
    const unpaid = stripeEvent('customer.subscription.updated', subscription(expanded, 'unpaid'), {
      status: 'past_due',
    });
    expect((await send(unpaid)).json()).toMatchObject({ status: 'processed' });
    expect(await status(id)).toMatchObject({
      status: 'EXPIRED',
      status_reason: 'payment: subscription unpaid',
    });

    const active = stripeEvent('customer.subscription.updated', subscription(cus, 'active'), {
      status: 'unpaid',
    });
    expect((await send(active)).json()).toMatchObject({ status: 'processed' });
    expect((await status(id)).status).toBe('ACTIVE');

    for (const ending of ['canceled', 'incomplete_expired'] as const) {
      const ev = stripeEvent('customer.subscription.updated', subscription(cus, ending));
      expect((await send(ev)).json()).toMatchObject({ status: 'processed' });
      expect(await status(id)).toMatchObject({
        status: 'EXPIRED',
        status_reason: `payment: subscription ${ending}`,
      });
      const back = stripeEvent('customer.subscription.created', subscription(cus, 'trialing'));
      expect((await send(back)).json()).toMatchObject({ status: 'processed' });
      expect((await status(id)).status).toBe('ACTIVE');
    }

    const pastDue = await send(
      stripeEvent('customer.subscription.updated', subscription(cus, 'past_due')),
    );
    expect(pastDue.statusCode).toBe(200);
    expect(pastDue.json()).toMatchObject({
      status: 'ignored',
      message: 'subscription status past_due does not change access',
    });
    expect((await status(id)).status).toBe('ACTIVE');
  });

  it('answers 200 ignored, changing nothing, for events that may not move the customer', async () => {
    const { cus, id } = await stripeCustomer();
    const before = (await auditOf(id)).length;

    const alreadyActive = await send(stripeEvent('invoice.payment_succeeded', invoice(cus)));
    expect(alreadyActive.statusCode).toBe(200);
    expect(alreadyActive.json()).toMatchObject({
      status: 'ignored',
      message: `customer ${id}: Customer is already ACTIVE`,
    });

    await api('POST', `/api/v1/customers/${id}/suspend`, { reason: 'fraud check' });
    const suspendedDeleted = await send(
      stripeEvent('customer.subscription.deleted', subscription(cus, 'canceled')),
    );
    expect(suspendedDeleted.statusCode).toBe(200);
    expect(suspendedDeleted.json().status).toBe('ignored');
    expect(suspendedDeleted.json().message).toMatch(/SUSPENDED/);
    const suspendedPaid = await send(stripeEvent('invoice.paid', invoice(cus)));
    expect(suspendedPaid.json().status).toBe('ignored');
    expect(await status(id)).toMatchObject({ status: 'SUSPENDED', status_reason: 'fraud check' });

    const unknown = await send(stripeEvent('invoice.paid', invoice(stripeId('cus', 14))));
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toMatchObject({ status: 'ignored' });
    expect(unknown.json().message).toMatch(/^no customer has external_id cus_/);

    const other = await send(stripeEvent('charge.refunded', { id: stripeId('ch'), customer: cus }));
    expect(other.statusCode).toBe(200);
    expect(other.json()).toMatchObject({
      status: 'ignored',
      event: 'charge.refunded',
      message: 'event type charge.refunded is not handled',
    });

    // Only the admin's suspend was recorded.
    expect((await auditOf(id)).length).toBe(before + 1);
  });

  it('does not let a payment reactivate a customer its access date expired', async () => {
    const { cus, id } = await stripeCustomer({ access_expires_at: '2020-01-01T00:00:00Z' });
    expect((await status(id)).status).toBe('EXPIRED');
    const res = await send(stripeEvent('invoice.paid', invoice(cus)));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'ignored',
      message: `customer ${id}: Customer is EXPIRED by its access date, not by a payment; an admin must reactivate it`,
    });
    expect(await status(id)).toMatchObject({ status: 'EXPIRED', status_reason: 'access expired' });
  });

  it('keeps an admin reactivation of a payment-expired customer, also against a replay', async () => {
    const { cus, id } = await stripeCustomer();
    const deleted = stripeEvent('customer.subscription.deleted', subscription(cus, 'canceled'));
    expect((await send(deleted)).json().status).toBe('processed');
    expect((await status(id)).status).toBe('EXPIRED');

    const reactivated = await api('POST', `/api/v1/customers/${id}/reactivate`);
    expect(reactivated).toMatchObject({ status: 'ACTIVE', status_reason: null });
    expect(await statusSource(id)).toBeNull();

    const replay = await send(deleted);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toMatchObject({
      status: 'duplicate',
      delivery_id: deleted.id,
      message: 'already processed',
    });
    expect((await status(id)).status).toBe('ACTIVE');
    expect((await auditOf(id)).map((a) => a.action)).toEqual([
      'customer.reactivate',
      'customer.payment_expire',
      'customer.create',
    ]);
  });

  it('expires a FROZEN customer and a payment returns it to ACTIVE with the frozen set cleared', async () => {
    const { cus, id } = await stripeCustomer();
    await api('POST', `/api/v1/customers/${id}/packages`, { package: 'acme/lib', constraint: '*' });
    const token = (await api('POST', `/api/v1/customers/${id}/tokens`, { name: 'ci' }))
      .plain_token as string;
    await api('POST', `/api/v1/customers/${id}/freeze`, {
      versions: [{ package: 'acme/lib', version: '1.0.0' }],
    });
    const versions = async () => {
      const res = await t.app.inject({
        url: '/p2/acme/lib.json',
        headers: { authorization: basicAuth(token) },
      });
      if (res.statusCode !== 200) return res.statusCode;
      return (res.json().packages['acme/lib'] as { version: string }[]).map((v) => v.version);
    };
    expect(await versions()).toEqual(['1.0.0']);

    const unpaid = stripeEvent('customer.subscription.updated', subscription(cus, 'unpaid'));
    expect((await send(unpaid)).json()).toMatchObject({
      status: 'processed',
      message: `customer ${id}: FROZEN -> EXPIRED`,
    });
    expect((await status(id)).status).toBe('EXPIRED');
    expect(await versions()).toBe(403);

    expect((await send(stripeEvent('invoice.paid', invoice(cus)))).json().status).toBe('processed');
    expect((await status(id)).status).toBe('ACTIVE');
    expect((await versions()) as string[]).toEqual(expect.arrayContaining(['1.0.0', '1.1.0']));
  });

  it('applies one of two concurrent events ending the same subscription, once', async () => {
    const { cus, id } = await stripeCustomer();
    const sub = subscription(cus, 'unpaid');
    const answers = await Promise.all([
      send(stripeEvent('customer.subscription.updated', sub)),
      send(stripeEvent('customer.subscription.deleted', { ...sub, status: 'canceled' })),
    ]);
    const outcomes = answers.map((r) => r.json().status ?? r.json().code).sort();
    expect(outcomes.filter((o) => o === 'processed')).toHaveLength(1);
    // The other one saw the change (ignored) or lost the race to it (409, so Stripe retries).
    expect(outcomes.filter((o) => o !== 'processed')).toEqual([
      expect.stringMatching(/^(ignored|CONFLICT)$/),
    ]);
    expect((await status(id)).status).toBe('EXPIRED');
    const audit = await auditOf(id);
    expect(audit.filter((a) => a.action === 'customer.payment_expire')).toHaveLength(1);
    expect(statusChanges(id)).toBe(1);
  });

  it('refuses a missing, wrong or too old signature with 401 and changes nothing', async () => {
    const { cus, id } = await stripeCustomer();
    const deleted = stripeEvent('customer.subscription.deleted', subscription(cus, 'canceled'));
    const tooOld = Math.floor(Date.now() / 1000) - 6 * 60;
    const attempts: Partial<DeliveryOptions>[] = [
      { signature: null },
      { secret: 'whsec_someone_else' },
      { timestamp: tooOld },
      { signature: 't=1,v1=' },
    ];
    for (const attempt of attempts) {
      const res = await send(deleted, attempt);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ error: 'unauthorized', code: 'UNAUTHORIZED' });
    }
    expect((await status(id)).status).toBe('ACTIVE');
    expect(statusChanges(id)).toBe(0);
    // Refused deliveries do not use up the event id: the genuine one still goes through.
    expect((await send(deleted)).json().status).toBe('processed');
  });

  it('answers 400 VALIDATION_ERROR for a signed event without data.object', async () => {
    const { cus, id } = await stripeCustomer();
    const event = stripeEvent('customer.subscription.deleted', subscription(cus, 'canceled'));
    const broken = { ...event, data: {} };
    const res = await send(broken);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation_error', code: 'VALIDATION_ERROR' });
    expect(res.json().details).toEqual([
      { field: 'data', message: 'must have required properties object' },
    ]);

    const noCustomer = stripeEvent('invoice.paid', invoice(null as unknown as string));
    const res2 = await send(noCustomer);
    expect(res2.statusCode).toBe(400);
    expect(res2.json().details).toEqual([
      { field: 'data.object.customer', message: 'must name the Stripe customer' },
    ]);
    expect((await status(id)).status).toBe('ACTIVE');
  });
});

describe('the payment webhook without STRIPE_WEBHOOK_SECRET', () => {
  it('answers 403 FEATURE_NOT_AVAILABLE', async () => {
    const bare = await createTestApp();
    try {
      const { body, headers } = stripeRequest(
        stripeEvent('invoice.paid', invoice(stripeId('cus', 14))),
        { secret: SECRET },
      );
      const res = await bare.app.inject({
        method: 'POST',
        url: '/api/webhooks/payment',
        payload: body,
        headers,
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({
        error: 'feature_not_available',
        code: 'FEATURE_NOT_AVAILABLE',
      });
    } finally {
      await bare.close();
    }
  });
});
