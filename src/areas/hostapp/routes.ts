import type { App } from '../../http/app-types.js';
import { ErrorResponses, IdParams, ListOf, PageQuery, pageOf, paging } from '../../http/schemas.js';
import { presentInstallation, presentRepository, presentStatus } from './presenter.js';
import {
  ClaimBody,
  HostAppStatusSchema,
  InstallUrlSchema,
  InstallationSchema,
  RepositorySchema,
} from './schema.js';
import { TaskSchema } from '../tasks/schema.js';
import { presentTask } from '../tasks/presenter.js';

const tags = ['hostapp'];
const errors = ErrorResponses;

/** /api/v1/hostapp/… (admin API): the GitHub App's installations. */
export async function hostAppRoutes(app: App): Promise<void> {
  const hostApp = app.services.hostApp;

  app.get(
    '/hostapp/status',
    { schema: { tags, response: { 200: HostAppStatusSchema, ...errors } } },
    async () => presentStatus(hostApp.status()),
  );

  app.get(
    '/hostapp/install-url',
    { schema: { tags, response: { 200: InstallUrlSchema, ...errors } } },
    async () => ({ url: hostApp.installUrl() }),
  );

  app.get(
    '/hostapp/installations',
    {
      schema: {
        tags,
        querystring: PageQuery,
        response: { 200: ListOf(InstallationSchema), ...errors },
      },
    },
    async (req) => {
      const { page, perPage, offset } = paging(req.query);
      const { rows, total } = await hostApp.list(req, { offset, limit: perPage });
      return pageOf(rows.map(presentInstallation), total, page, perPage);
    },
  );

  app.post(
    '/hostapp/installations/claim',
    {
      schema: {
        tags,
        body: ClaimBody,
        response: { 200: InstallationSchema, 201: InstallationSchema, ...errors },
      },
    },
    async (req, reply) => {
      const { row, created } = await hostApp.claim(req, req.body.installation_id);
      return reply.code(created ? 201 : 200).send(presentInstallation(row));
    },
  );

  app.get(
    '/hostapp/installations/by-host-id/:id',
    { schema: { tags, params: IdParams, response: { 200: InstallationSchema, ...errors } } },
    async (req) => {
      return presentInstallation(await hostApp.getByHostId(req, req.params.id));
    },
  );

  app.get(
    '/hostapp/installations/:id',
    { schema: { tags, params: IdParams, response: { 200: InstallationSchema, ...errors } } },
    async (req) => {
      return presentInstallation(await hostApp.get(req, req.params.id));
    },
  );

  app.get(
    '/hostapp/installations/:id/repositories',
    {
      schema: {
        tags,
        params: IdParams,
        querystring: PageQuery,
        response: { 200: ListOf(RepositorySchema), ...errors },
      },
    },
    async (req) => {
      const { page, perPage, offset } = paging(req.query);
      const { rows, total } = await hostApp.repositories(req, req.params.id, {
        offset,
        limit: perPage,
      });
      return pageOf(rows.map(presentRepository), total, page, perPage);
    },
  );

  app.post(
    '/hostapp/installations/:id/sync',
    { schema: { tags, params: IdParams, response: { 202: TaskSchema, ...errors } } },
    async (req, reply) =>
      reply.code(202).send(presentTask(await hostApp.queueSync(req, req.params.id))),
  );
}
