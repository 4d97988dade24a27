import { Type } from 'typebox';
import type { App } from '../../http/app-types.js';
import { ctxOf } from '../../http/auth.js';
import { ErrorResponses, IdParams, ListOf, PageQuery, pageOf, paging } from '../../http/schemas.js';
import { presentIssued, presentToken } from './presenter.js';
import {
  CreateTokenBody,
  IssuedTokenSchema,
  JwtBody,
  JwtSchema,
  TokenParams,
  TokenSchema,
} from './schema.js';

const tags = ['tokens'];
const errors = ErrorResponses;

export async function tokenRoutes(app: App): Promise<void> {
  const tokens = app.services.tokens;
  const baseUrl = app.services.deps.config.baseUrl;
  const issued = { 201: IssuedTokenSchema, ...errors };

  app.post(
    '/customers/:id/tokens',
    { schema: { tags, params: IdParams, body: CreateTokenBody, response: issued } },
    async (req, reply) => {
      const token = await tokens.create(ctxOf(req), req.params.id, req.body);
      return reply.code(201).send(presentIssued(token, baseUrl));
    },
  );

  app.get(
    '/customers/:id/tokens',
    {
      schema: {
        tags,
        params: IdParams,
        querystring: PageQuery,
        response: { 200: ListOf(TokenSchema), ...errors },
      },
    },
    async (req) => {
      const { page, perPage, offset } = paging(req.query);
      const { rows, total } = await tokens.list(ctxOf(req), req.params.id, {
        offset,
        limit: perPage,
      });
      return pageOf(rows.map(presentToken), total, page, perPage);
    },
  );

  app.get(
    '/customers/:id/tokens/:token_id',
    { schema: { tags, params: TokenParams, response: { 200: TokenSchema, ...errors } } },
    async (req) => presentToken(await tokens.get(ctxOf(req), req.params.id, req.params.token_id)),
  );

  app.delete(
    '/customers/:id/tokens/:token_id',
    { schema: { tags, params: TokenParams, response: { 204: Type.Null(), ...errors } } },
    async (req, reply) => {
      await tokens.revoke(ctxOf(req), req.params.id, req.params.token_id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/customers/:id/tokens/:token_id/rotate',
    { schema: { tags, params: TokenParams, response: issued } },
    async (req, reply) => {
      const token = await tokens.rotate(ctxOf(req), req.params.id, req.params.token_id);
      return reply.code(201).send(presentIssued(token, baseUrl));
    },
  );

  app.post(
    '/customers/:id/token/regenerate',
    { schema: { tags, params: IdParams, response: issued } },
    async (req, reply) => {
      const token = await tokens.regenerate(ctxOf(req), req.params.id);
      return reply.code(201).send(presentIssued(token, baseUrl));
    },
  );

  app.delete(
    '/customers/:id/token',
    { schema: { tags, params: IdParams, response: { 204: Type.Null(), ...errors } } },
    async (req, reply) => {
      await tokens.revokeAll(ctxOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/customers/:id/jwt',
    {
      schema: {
        tags,
        params: IdParams,
        body: JwtBody,
        response: { 201: JwtSchema, ...errors },
      },
    },
    async (req, reply) => {
      const jwt = await tokens.issueJwt(ctxOf(req), req.params.id, req.body);
      return reply
        .code(201)
        .send({ token: jwt.token, token_type: 'Bearer' as const, expires_at: jwt.expiresAt });
    },
  );
}
