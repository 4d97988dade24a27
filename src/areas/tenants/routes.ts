import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../http/app-types.js';
import { bearerToken, ctxOf } from '../../http/auth.js';
import { assertRouteOperation, routeRule } from '../../http/route-operations.js';
import { PLATFORM_ACTOR, authorize } from '../auth/authorize.js';
import { ErrorResponses, IdParams, ListOf, PageQuery, pageOf, paging } from '../../http/schemas.js';
import { rejectUndeclaredFields } from '../../http/validation.js';
import { AppError } from '../../errors.js';
import { constantTimeEqual, digest } from '../../infra/crypto.js';
import {
  ChangePlanBody,
  CreateTenantBody,
  CreatedTenantSchema,
  TenantSchema,
  TenantUsageSchema,
  UpdateTenantBody,
  UsageNotificationSchema,
} from './schema.js';
import type { TenantDto } from './schema.js';
import type { TenantService } from './service.js';

const tags = ['tenants'];
const errors = ErrorResponses;

const present = (row: TenantDto): TenantDto => ({
  id: row.id,
  name: row.name,
  subdomain: row.subdomain,
  plan: row.plan,
  status: row.status,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/**
 * The platform API (docs/cloud.md): any host, PLATFORM_ADMIN_TOKEN only, which acts as
 * the platform actor; each route names its operation in http/route-operations.ts and POLICY
 * gives it its rule, as on the admin API. Registered in the Cloud edition only; elsewhere the
 * paths answer FEATURE_NOT_AVAILABLE.
 */
export function tenantRoutes(tenants: TenantService, platformToken: string | null) {
  const expected = platformToken ? digest(platformToken) : null;
  const authenticate = async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token || !expected || !constantTimeEqual(digest(token), expected)) {
      throw new AppError('UNAUTHORIZED', 'The platform API needs PLATFORM_ADMIN_TOKEN');
    }
    request.actor = PLATFORM_ACTOR;
    request.userAgent = request.headers['user-agent'] ?? null;
    const { edition } = request.server.services.deps.config;
    authorize(PLATFORM_ACTOR, routeRule(request.method, request.routeOptions.url), edition);
  };

  return async function routes(app: App): Promise<void> {
    app.addHook('onRoute', assertRouteOperation);
    app.addHook('onRequest', authenticate);
    app.addHook('preValidation', async (request) => {
      if (request.body === undefined && request.method !== 'GET') request.body = {};
      rejectUndeclaredFields(request);
    });

    app.get(
      '/tenants',
      {
        schema: {
          tags,
          querystring: PageQuery,
          response: { 200: ListOf(TenantSchema), ...errors },
        },
      },
      async (req) => {
        const { page, perPage, offset } = paging(req.query);
        const { rows, total } = await tenants.list(ctxOf(req), { offset, limit: perPage });
        return pageOf(rows.map(present), total, page, perPage);
      },
    );

    app.post(
      '/tenants',
      {
        schema: { tags, body: CreateTenantBody, response: { 201: CreatedTenantSchema, ...errors } },
      },
      async (req, reply) => {
        const { tenant, ownerToken } = await tenants.create(ctxOf(req), req.body);
        return reply.code(201).send({ tenant: present(tenant), owner_token: ownerToken });
      },
    );

    app.get(
      '/tenants/:id',
      { schema: { tags, params: IdParams, response: { 200: TenantSchema, ...errors } } },
      async (req) => present(await tenants.get(ctxOf(req), req.params.id)),
    );

    app.get(
      '/tenants/:id/usage',
      { schema: { tags, params: IdParams, response: { 200: TenantUsageSchema, ...errors } } },
      async (req) => tenants.usageOf(ctxOf(req), req.params.id),
    );

    app.get(
      '/tenants/:id/notifications',
      {
        schema: {
          tags,
          params: IdParams,
          querystring: PageQuery,
          response: { 200: ListOf(UsageNotificationSchema), ...errors },
        },
      },
      async (req) => {
        const { page, perPage, offset } = paging(req.query);
        const { rows, total } = await tenants.notificationsOf(ctxOf(req), req.params.id, {
          offset,
          limit: perPage,
        });
        return pageOf(rows, total, page, perPage);
      },
    );

    app.patch(
      '/tenants/:id',
      {
        schema: {
          tags,
          params: IdParams,
          body: UpdateTenantBody,
          response: { 200: TenantSchema, ...errors },
        },
      },
      async (req) =>
        present(await tenants.update(ctxOf(req), req.params.id, { name: req.body.name })),
    );

    app.delete(
      '/tenants/:id',
      { schema: { tags, params: IdParams, response: { 204: Type.Null(), ...errors } } },
      async (req, reply) => {
        await tenants.delete(ctxOf(req), req.params.id);
        return reply.code(204).send(null);
      },
    );

    for (const [action, status] of [
      ['suspend', 'suspended'],
      ['reactivate', 'active'],
    ] as const) {
      app.post(
        `/tenants/:id/${action}`,
        { schema: { tags, params: IdParams, response: { 200: TenantSchema, ...errors } } },
        async (req) => present(await tenants.update(ctxOf(req), req.params.id, { status })),
      );
    }

    app.post(
      '/tenants/:id/change-plan',
      {
        schema: {
          tags,
          params: IdParams,
          body: ChangePlanBody,
          response: { 200: TenantSchema, ...errors },
        },
      },
      async (req) =>
        present(await tenants.update(ctxOf(req), req.params.id, { plan: req.body.plan })),
    );
  };
}
