import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudTenant, createTestApp, graphqlBody, waitFor } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { adminApi, createCustomer, insertPackageRow } from '../../../test/factories.js';
import { startReceiver } from './receiver.test-helper.js';
import type { Received } from './receiver.test-helper.js';

/** The Node snippet of docs/webhooks-outgoing.md, as a receiver would write it. */
function verifyPackyardSignature(
  secret: string,
  header: string,
  rawBody: string,
  toleranceSeconds = 300,
): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2)));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceSeconds) return false;
  const expected = crypto.createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex');
  const given = Buffer.from(String(parts.v1), 'hex');
  return (
    given.length === expected.length / 2 &&
    crypto.timingSafeEqual(given, Buffer.from(expected, 'hex'))
  );
}

let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let api: ReturnType<typeof adminApi>;

beforeAll(async () => {
  t = await createTestApp({
    EDITION: 'pro',
    OUTGOING_WEBHOOK_RETRY_SECONDS: '0.02',
    OUTGOING_WEBHOOK_TIMEOUT_SECONDS: '0.5',
  });
  api = adminApi(t);
  receiver = await startReceiver();
  await insertPackageRow(t, 'acme/one');
  await insertPackageRow(t, 'acme/two');
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

const inject = (method: string, url: string, payload?: unknown, headers = t.admin) =>
  t.app.inject({ method: method as 'GET', url, headers, payload: payload as object });

async function createEndpoint(body: Record<string, unknown>) {
  const res = await inject('POST', '/api/v1/webhook-endpoints', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string; secret: string; url: string; events: string[] }>();
}

const deliveriesOf = async (id: string) =>
  (await api('GET', `/api/v1/webhook-endpoints/${id}/deliveries?per_page=100`)) as {
    data: { id: string; event_id: string; event_type: string; status: string; attempts: number }[];
  };

const arrivals = (filter: (r: Received) => boolean, n: number) =>
  waitFor(
    async () => receiver.received.filter(filter),
    (rows) => rows.length >= n,
  );

describe('outgoing webhooks', () => {
  it('creates an endpoint whose secret is shown once, and refuses bad ones', async () => {
    const created = await createEndpoint({
      url: receiver.url,
      events: ['customer.created'],
      description: 'CRM',
    });
    expect(created.secret).toMatch(/^whsec_/);
    expect(created).toMatchObject({
      url: receiver.url,
      events: ['customer.created'],
      active: true,
    });
    const read = (await api('GET', `/api/v1/webhook-endpoints/${created.id}`)) as Record<
      string,
      unknown
    >;
    expect(read.secret_set).toBe(true);
    expect(read).not.toHaveProperty('secret');
    const list = (await api('GET', '/api/v1/webhook-endpoints')) as { data: unknown[] };
    expect(list.data.length).toBeGreaterThan(0);

    for (const bad of [
      { url: 'ftp://example.com/x', events: ['package.created'] },
      { url: 'https://user:pw@example.com/x', events: ['package.created'] },
      { url: receiver.url, events: [] },
      { url: receiver.url, events: ['no.such'] },
      { url: receiver.url, events: ['package.created'], extra: 1 },
    ]) {
      const res = await inject('POST', '/api/v1/webhook-endpoints', bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: 'validation_error' });
    }
    await api('DELETE', `/api/v1/webhook-endpoints/${created.id}`);
    expect((await inject('GET', `/api/v1/webhook-endpoints/${created.id}`)).statusCode).toBe(404);
  });

  it('delivers a signed event the receiver can verify', async () => {
    const endpoint = await createEndpoint({ url: receiver.url, events: ['customer.created'] });
    const customer = await createCustomer(t, 'Signed');
    const [got] = await arrivals(
      (r) => r.json.type === 'customer.created' && r.json.data.customer_id === customer.id,
      1,
    );
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['packyard-event']).toBe('customer.created');
    expect(got!.json.id).toMatch(/^evt_\d{16}$/);
    const signatureHeader = String(got!.headers['packyard-signature']);
    expect(signatureHeader).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyPackyardSignature(endpoint.secret, signatureHeader, got!.body)).toBe(true);
    expect(verifyPackyardSignature('whsec_wrong', signatureHeader, got!.body)).toBe(false);
    const deliveries = await waitFor(
      () => deliveriesOf(endpoint.id),
      (d) => d.data.some((x) => x.status === 'succeeded'),
    );
    expect(deliveries.data[0]).toMatchObject({
      id: got!.headers['packyard-delivery'],
      event_id: got!.json.id,
      event_type: 'customer.created',
      status: 'succeeded',
      attempts: 1,
      response_status: 200,
      next_attempt_at: null,
    });
    // The same event is in the feed.
    const feed = (await api('GET', '/api/v1/events?type=customer.created')) as {
      data: { id: string }[];
    };
    expect(feed.data.map((e) => e.id)).toContain(got!.json.id);
    await api('DELETE', `/api/v1/webhook-endpoints/${endpoint.id}`);
  });

  it('retries a failing delivery and keeps the order of one package under retries', async () => {
    const endpoint = await createEndpoint({
      url: receiver.url,
      events: ['access.granted', 'access.revoked'],
    });
    const customer = await createCustomer(t, 'Ordered');
    let refusals = 2;
    receiver.answerWith((r) => {
      if (r.json.type === 'access.granted' && r.json.data.customer_id === customer.id) {
        if (refusals > 0) {
          refusals -= 1;
          return 500;
        }
      }
      return 200;
    });
    await api('POST', `/api/v1/customers/${customer.id}/packages`, { package: 'acme/one' });
    await api('DELETE', `/api/v1/customers/${customer.id}/packages/acme/one`);
    const mine = (r: Received) => r.json.data.customer_id === customer.id;
    const got = await arrivals(mine, 4);
    expect(got.map((r) => r.json.type)).toEqual([
      'access.granted',
      'access.granted',
      'access.granted',
      'access.revoked',
    ]);
    expect(got[0]!.json.id).toBe(got[2]!.json.id);
    expect(got[0]!.json.data).toEqual({
      customer_id: customer.id,
      package: 'acme/one',
      constraint: '*',
    });
    const deliveries = await waitFor(
      () => deliveriesOf(endpoint.id),
      (d) => d.data.length === 2 && d.data.every((x) => x.status === 'succeeded'),
    );
    // Newest first.
    expect(deliveries.data.map((d) => [d.event_type, d.attempts])).toEqual([
      ['access.revoked', 1],
      ['access.granted', 3],
    ]);
    receiver.answerWith(() => 200);
    await api('DELETE', `/api/v1/webhook-endpoints/${endpoint.id}`);
  });

  it('gives up after 8 attempts, then redelivers the same event on request; pings', async () => {
    // A port nobody listens on: every attempt is refused.
    const closed = await startReceiver();
    await closed.close();
    const endpoint = await createEndpoint({ url: closed.url, events: ['customer.deleted'] });
    const customer = await createCustomer(t, 'Gone');
    await api('DELETE', `/api/v1/customers/${customer.id}`);
    const failed = await waitFor(
      () => deliveriesOf(endpoint.id),
      (d) => d.data[0]?.status === 'failed',
    );
    expect(failed.data[0]).toMatchObject({ attempts: 8, status: 'failed', next_attempt_at: null });

    await api('PATCH', `/api/v1/webhook-endpoints/${endpoint.id}`, { url: receiver.url });
    const redeliver = await inject(
      'POST',
      `/api/v1/webhook-endpoints/${endpoint.id}/deliveries/${failed.data[0]!.id}/redeliver`,
    );
    expect(redeliver.statusCode, redeliver.body).toBe(202);
    const [again] = await arrivals((r) => r.json.id === failed.data[0]!.event_id, 1);
    expect(again!.json.data).toEqual({ customer_id: customer.id });
    const done = await waitFor(
      () => deliveriesOf(endpoint.id),
      (d) => d.data[0]?.status === 'succeeded',
    );
    expect(done.data[0]!.attempts).toBe(9);

    const ping = await inject('POST', `/api/v1/webhook-endpoints/${endpoint.id}/ping`);
    expect(ping.statusCode, ping.body).toBe(202);
    const [pinged] = await arrivals((r) => r.json.type === 'ping', 1);
    expect(pinged!.json.data).toEqual({});
    expect(pinged!.headers['packyard-event']).toBe('ping');
    const missing = await inject('POST', '/api/v1/webhook-endpoints/nope/ping');
    expect(missing.statusCode).toBe(404);
    await api('DELETE', `/api/v1/webhook-endpoints/${endpoint.id}`);
  });

  it('gives up on a receiver that does not answer in time, and retries it', async () => {
    const endpoint = await createEndpoint({ url: receiver.url, events: ['customer.created'] });
    let hung = false;
    receiver.answerWith((r) => {
      if (r.json.type === 'customer.created' && !hung) {
        hung = true;
        return 'hang';
      }
      return 200;
    });
    const customer = await createCustomer(t, 'Slow');
    const mine = (r: Received) => r.json.data.customer_id === customer.id;
    await arrivals(mine, 2);
    const done = await waitFor(
      () => api('GET', `/api/v1/webhook-endpoints/${endpoint.id}/deliveries`),
      (d) => (d as { data: { status: string }[] }).data[0]?.status === 'succeeded',
    );
    expect((done as { data: { attempts: number }[] }).data[0]!.attempts).toBe(2);
    receiver.answerWith(() => 200);
    await api('DELETE', `/api/v1/webhook-endpoints/${endpoint.id}`);
  });

  it('sends nothing to a paused endpoint, and the next events once it is active again', async () => {
    const endpoint = await createEndpoint({ url: receiver.url, events: ['customer.deleted'] });
    const before = await createCustomer(t, 'Paused');
    await api('PATCH', `/api/v1/webhook-endpoints/${endpoint.id}`, { active: false });
    await api('DELETE', `/api/v1/customers/${before.id}`);
    expect((await deliveriesOf(endpoint.id)).data).toEqual([]);
    await api('PATCH', `/api/v1/webhook-endpoints/${endpoint.id}`, { active: true });
    const after = await createCustomer(t, 'Resumed');
    await api('DELETE', `/api/v1/customers/${after.id}`);
    const [got] = await arrivals((r) => r.json.data.customer_id === after.id, 1);
    expect(got!.json.type).toBe('customer.deleted');
    expect(receiver.received.filter((r) => r.json.data.customer_id === before.id)).toEqual([]);
    await api('DELETE', `/api/v1/webhook-endpoints/${endpoint.id}`);
  });

  it('lets a viewer read endpoints, deliveries and the feed, and write nothing', async () => {
    const endpoint = await createEndpoint({ url: receiver.url, events: ['package.created'] });
    const { plain } = await t.runtime.services.team.create(
      { tenantId: 'default', actor: { kind: 'system', id: null } },
      { name: 'viewer', level: 'viewer' },
    );
    const viewer = { authorization: `Bearer ${plain}` };
    expect((await inject('GET', '/api/v1/webhook-endpoints', undefined, viewer)).statusCode).toBe(
      200,
    );
    const deliveries = `/api/v1/webhook-endpoints/${endpoint.id}/deliveries`;
    expect((await inject('GET', deliveries, undefined, viewer)).statusCode).toBe(200);
    expect((await inject('GET', '/api/v1/events', undefined, viewer)).statusCode).toBe(200);
    for (const [method, url, body] of [
      ['POST', '/api/v1/webhook-endpoints', { url: receiver.url, events: ['package.created'] }],
      ['PATCH', `/api/v1/webhook-endpoints/${endpoint.id}`, { active: false }],
      ['DELETE', `/api/v1/webhook-endpoints/${endpoint.id}`, undefined],
      ['POST', `/api/v1/webhook-endpoints/${endpoint.id}/ping`, undefined],
    ] as const) {
      const res = await inject(method, url, body, viewer);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    await api('DELETE', `/api/v1/webhook-endpoints/${endpoint.id}`);
  });

  it('serves the feed oldest first with after, type and limit; a malformed after is 400', async () => {
    const first = (await api('GET', '/api/v1/events?limit=1')) as {
      data: { id: string }[];
      next: string;
    };
    expect(first.data).toHaveLength(1);
    expect(first.next).toBe(first.data[0]!.id);
    const rest = (await api('GET', `/api/v1/events?after=${first.next}&limit=500`)) as {
      data: { id: string; type: string; created_at: string; data: unknown }[];
      next: string;
    };
    const ids = rest.data.map((e) => e.id);
    expect(ids.every((id) => id > first.next)).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(rest.next).toBe(ids.at(-1));
    const empty = (await api('GET', `/api/v1/events?after=${rest.next}`)) as {
      data: unknown[];
      next: string;
    };
    expect(empty).toEqual({ data: [], next: rest.next });
    const typed = (await api('GET', '/api/v1/events?type=customer.created')) as {
      data: { type: string }[];
    };
    expect(typed.data.length).toBeGreaterThan(0);
    expect(typed.data.every((e) => e.type === 'customer.created')).toBe(true);
    for (const q of ['after=nope', 'after=evt_12', 'limit=0', 'limit=501', 'type=x.y', 'foo=1']) {
      const res = await inject('GET', `/api/v1/events?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
  });

  it('answers GraphQL events and webhook endpoints in camelCase', async () => {
    const created = await graphqlBody(
      t,
      `mutation($input: CreateWebhookEndpointInput!) {
        createWebhookEndpoint(input: $input) { id url events active secret secretSet createdAt }
      }`,
      { input: { url: receiver.url, events: ['package.created'] } },
    );
    expect(created.errors).toBeUndefined();
    const endpoint = created.data!.createWebhookEndpoint as { id: string; secret: string };
    expect(endpoint.secret).toMatch(/^whsec_/);
    const updated = await graphqlBody(
      t,
      `mutation($id: ID!) { updateWebhookEndpoint(id: $id, input: { active: false }) { active secretSet } }`,
      { id: endpoint.id },
    );
    expect(updated.data).toEqual({ updateWebhookEndpoint: { active: false, secretSet: true } });
    const read = await graphqlBody(
      t,
      `{ webhookEndpoints { edges { node { id active } } totalCount }
         events(limit: 2) { data { id type createdAt data } next } }`,
    );
    expect(read.errors).toBeUndefined();
    const events = read.data!.events as { data: { id: string }[]; next: string };
    expect(events.data).toHaveLength(2);
    expect(events.next).toBe(events.data[1]!.id);
    const bad = await graphqlBody(t, `{ events(after: "bad") { next } }`);
    expect(bad.errors?.[0]?.extensions.code).toBe('VALIDATION_ERROR');
    const deleted = await graphqlBody(t, `mutation($id: ID!) { deleteWebhookEndpoint(id: $id) }`, {
      id: endpoint.id,
    });
    expect(deleted.data).toEqual({ deleteWebhookEndpoint: true });
  });
});

describe('outgoing webhooks by edition', () => {
  it('answers 403 FEATURE_NOT_AVAILABLE in the community edition', async () => {
    const c = await createTestApp({ EDITION: 'community' });
    try {
      for (const [method, url] of [
        ['GET', '/api/v1/events'],
        ['GET', '/api/v1/webhook-endpoints'],
        ['POST', '/api/v1/webhook-endpoints'],
        ['GET', '/api/v1/webhook-endpoints/x/deliveries'],
        ['POST', '/api/v1/webhook-endpoints/x/ping'],
      ] as const) {
        const res = await c.app.inject({
          method,
          url,
          headers: c.admin,
          payload: method === 'POST' ? { url: 'https://example.com', events: ['ping'] } : undefined,
        });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json()).toMatchObject({ code: 'FEATURE_NOT_AVAILABLE' });
      }
    } finally {
      await c.close();
    }
  });

  it('refuses private and loopback targets in Cloud', async () => {
    const c = await createTestApp({ EDITION: 'cloud' });
    try {
      const tenant = await cloudTenant(c, 'hooks');
      for (const url of ['http://127.0.0.1:9/hook', 'http://10.0.0.8/hook', 'http://[::1]/x']) {
        const res = await c.app.inject({
          method: 'POST',
          url: '/api/v1/webhook-endpoints',
          headers: tenant.admin,
          payload: { url, events: ['package.created'] },
        });
        expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
        expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
      }
    } finally {
      await c.close();
    }
  });
});
