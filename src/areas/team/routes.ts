import { Type } from 'typebox';
import type { App } from '../../http/app-types.js';
import { ctxOf } from '../../http/auth.js';
import { ErrorResponses, IdParams, ListOf, PageQuery, pageOf, paging } from '../../http/schemas.js';
import { presentTeamToken } from './presenter.js';
import { CreateTeamTokenBody, IssuedTeamTokenSchema, TeamTokenSchema } from './schema.js';

const tags = ['team'];
const errors = ErrorResponses;

/** Team (CMA) tokens: every admin may list them; only owners create and revoke (auth/policy.ts). */
export async function teamRoutes(app: App): Promise<void> {
  const team = app.services.team;

  app.post(
    '/team/tokens',
    {
      schema: {
        tags,
        body: CreateTeamTokenBody,
        response: { 201: IssuedTeamTokenSchema, ...errors },
      },
    },
    async (req, reply) => {
      const { row, plain } = await team.create(ctxOf(req), req.body);
      return reply.code(201).send({ token: presentTeamToken(row), plain_token: plain });
    },
  );

  // Readable by every admin level, viewers included (docs/access.md): the list carries no secret.
  app.get(
    '/team/tokens',
    {
      schema: {
        tags,
        summary: 'Team tokens (id, name, level, dates; never the value or its digest)',
        querystring: PageQuery,
        response: { 200: ListOf(TeamTokenSchema), ...errors },
      },
    },
    async (req) => {
      const { page, perPage, offset } = paging(req.query);
      const { rows, total } = await team.list(ctxOf(req), { offset, limit: perPage });
      return pageOf(rows.map(presentTeamToken), total, page, perPage);
    },
  );

  app.delete(
    '/team/tokens/:id',
    { schema: { tags, params: IdParams, response: { 204: Type.Null(), ...errors } } },
    async (req, reply) => {
      await team.revoke(ctxOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  );
}
