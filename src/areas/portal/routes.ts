import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../../http/app-types.js';
import { ctxOf } from '../../http/auth.js';
import {
  ErrorResponses,
  ListOf,
  PackageParams,
  PageQuery,
  pageOf,
  paging,
} from '../../http/schemas.js';
import { forbidden } from '../../errors.js';
import { customerCredentials } from '../composer-repository/credentials.js';
import { originOf } from '../tenants/hook.js';
import { presentIssued, presentToken } from '../tokens/presenter.js';
import { IssuedTokenSchema, TokenSchema } from '../tokens/schema.js';
import {
  CreateMyTokenBody,
  MeSchema,
  MyPackageDetailSchema,
  MyPackageSchema,
  MyTokenParams,
  PortalInfoSchema,
} from './schema.js';
import type { PortalCtx } from './service.js';

const tags = ['portal'];
const errors = ErrorResponses;

/**
 * The customer portal's API (docs/portal.md): `/me*` for a customer token, Basic or Bearer, and
 * the public `/portal` branding. Each route is in ROUTE_OPERATIONS like every /api/v1 route.
 */
export async function portalRoutes(app: App): Promise<void> {
  const { portal, composer } = app.services;
  const { baseUrl } = app.services.deps.config;

  /**
   * The request's context with the principal the Composer surface gives the same credentials:
   * its answers (401, 403 for a suspended or expired customer or a `webhook` token) are p2's.
   */
  async function portalCtx(req: FastifyRequest): Promise<PortalCtx> {
    if (req.actor.kind !== 'customer') {
      throw forbidden('The portal API answers customer tokens only; admins use the admin API');
    }
    const principal = await composer.authenticate(
      req.tenantId,
      customerCredentials(req.headers.authorization),
    );
    return { ...ctxOf(req), customerPrincipal: principal };
  }

  app.get(
    '/portal',
    {
      config: { auth: { public: true } },
      schema: {
        tags,
        summary: "The portal's title, accent colour and repository URL (no credentials)",
        security: [],
        response: { 200: PortalInfoSchema, ...errors },
      },
    },
    async (req) => ({
      ...(await portal.branding(ctxOf(req))),
      repository_url: originOf(req, baseUrl),
    }),
  );

  app.get(
    '/me',
    { schema: { tags, summary: 'The customer and token', response: { 200: MeSchema, ...errors } } },
    async (req) => portal.me(await portalCtx(req)),
  );

  app.get(
    '/me/packages',
    {
      schema: {
        tags,
        summary: 'The packages this token may install, with the versions of its p2 documents',
        querystring: PageQuery,
        response: { 200: ListOf(MyPackageSchema), ...errors },
      },
    },
    async (req) => {
      const { page, perPage, offset } = paging(req.query);
      const { rows, total } = await portal.packages(await portalCtx(req), originOf(req, baseUrl), {
        offset,
        limit: perPage,
      });
      return pageOf(rows, total, page, perPage);
    },
  );

  app.get(
    '/me/packages/:vendor/:name',
    {
      schema: {
        tags,
        summary: 'One package this token may install: versions and readme',
        params: PackageParams,
        response: { 200: MyPackageDetailSchema, ...errors },
      },
    },
    async (req) =>
      portal.package(
        await portalCtx(req),
        `${req.params.vendor}/${req.params.name}`,
        originOf(req, baseUrl),
      ),
  );

  app.get(
    '/me/tokens',
    {
      schema: {
        tags,
        summary: "The tokens of this token's customer",
        querystring: PageQuery,
        response: { 200: ListOf(TokenSchema), ...errors },
      },
    },
    async (req) => {
      const { page, perPage, offset } = paging(req.query);
      const { rows, total } = await portal.tokens(await portalCtx(req), {
        offset,
        limit: perPage,
      });
      return pageOf(rows.map(presentToken), total, page, perPage);
    },
  );

  app.post(
    '/me/tokens',
    {
      schema: {
        tags,
        summary: 'Create a download or developer token (customer-admin tokens only)',
        body: CreateMyTokenBody,
        response: { 201: IssuedTokenSchema, ...errors },
      },
    },
    async (req, reply) => {
      const issued = await portal.createToken(await portalCtx(req), req.body);
      return reply.code(201).send(presentIssued(issued, originOf(req, baseUrl)));
    },
  );

  app.delete(
    '/me/tokens/:token_id',
    {
      schema: {
        tags,
        summary: "Revoke a token of this token's customer (customer-admin tokens only)",
        params: MyTokenParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (req, reply) => {
      await portal.revokeToken(await portalCtx(req), req.params.token_id);
      return reply.code(204).send(null);
    },
  );
}
