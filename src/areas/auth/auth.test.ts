import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { basicAuth, createTestApp, graphql } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { adminApi, createCustomer } from '../../../test/factories.js';
import type { Ctx } from '../../context.js';
import { assertRouteOperation } from '../../http/route-operations.js';

let t: TestApp;
let viewerToken: string;
let customerToken: string;

beforeAll(async () => {
  t = await createTestApp({ EDITION: 'enterprise' });
  const api = adminApi(t);
  viewerToken = (await api('POST', '/api/v1/team/tokens', { name: 'v', level: 'viewer' }))
    .plain_token as string;
  const customer = await createCustomer(t, 'Authz');
  customerToken = (
    await api('POST', `/api/v1/customers/${customer.id}/tokens`, { name: 'ci', scope: 'admin' })
  ).plain_token as string;
});
afterAll(async () => t.close());

describe('authorization per service operation', () => {
  it('refuses a viewer at the service itself, whatever transport calls it', async () => {
    const viewerActor = (
      await t.runtime.services.auth.authenticate('default', {
        scheme: 'bearer',
        secret: viewerToken,
      })
    ).actor;
    const ctx: Ctx = { tenantId: 'default', actor: viewerActor };
    const { customers, team } = t.runtime.services;
    await expect(customers.create(ctx, { name: 'X', email: 'x@x.test' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(team.create(ctx, { name: 'y', level: 'owner' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    // Reads stay open to viewers.
    const { total } = await customers.list(ctx, { offset: 0, limit: 10 });
    expect(total).toBeGreaterThan(0);
  });

  it('refuses customer actors on operations that name no customer scope', async () => {
    const found = await t.runtime.services.auth.authenticate('default', {
      scheme: 'basic',
      secret: customerToken,
    });
    expect(found.kind).toBe('customer');
    const ctx: Ctx = { tenantId: 'default', actor: found.actor };
    await expect(
      t.runtime.services.customers.list(ctx, { offset: 0, limit: 10 }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('refuses, at boot, an admin route that writes without naming its operation', () => {
    const app = Fastify();
    app.addHook('onRoute', assertRouteOperation);
    expect(() => app.post('/api/v1/unnamed', async () => ({}))).toThrow(/names no operation/);
  });
});

describe('one authentication for every transport', () => {
  it('counts every failed authentication on one limiter, REST, GraphQL and Composer alike', async () => {
    const limited = await createTestApp({ EDITION: 'enterprise', AUTH_FAILURE_LIMIT: '3' });
    try {
      const rest = await limited.app.inject({
        url: '/api/v1/customers',
        headers: { authorization: 'Bearer cma_wrong' },
      });
      expect(rest.statusCode).toBe(401);
      const gql = await graphql(
        limited,
        '{ stats { packages } }',
        {},
        { authorization: 'Bearer nope' },
      );
      expect(gql.errors?.[0]?.extensions.code).toBe('UNAUTHORIZED');
      const composer = await limited.app.inject({
        url: '/packages.json',
        headers: { authorization: basicAuth('pkt_wrong') },
      });
      expect(composer.statusCode).toBe(401);
      // Three failures of the address, one per transport: the next failing attempt is refused.
      const fourth = await limited.app.inject({
        url: '/packages.json',
        headers: { authorization: basicAuth('pkt_wrong') },
      });
      expect(fourth.statusCode).toBe(429);
      expect(fourth.headers['retry-after']).toBeTruthy();
      // A valid credential from the same address is served as always.
      const valid = await limited.app.inject({ url: '/api/v1/customers', headers: limited.admin });
      expect(valid.statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
