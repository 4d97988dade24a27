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
import { PackageSchema } from '../packages/schema.js';
import { presentPackage } from '../packages/presenter.js';
import { packageName } from '../packages/service.js';
import { TaskSchema } from '../tasks/schema.js';
import { presentTask } from '../tasks/presenter.js';
import { MonorepoSchema } from './schema.js';

const tags = ['monorepos'];
const errors = ErrorResponses;

/** A monorepo parent's folder globs and child packages, and the sync that discovers them. */
export async function monorepoRoutes(app: App): Promise<void> {
  const monorepos = app.services.monorepos;

  app.get(
    '/packages/:vendor/:name/monorepo',
    { schema: { tags, params: PackageParams, response: { 200: MonorepoSchema, ...errors } } },
    async (req) => monorepos.describe(ctxOf(req), packageName(req.params.vendor, req.params.name)),
  );

  app.post(
    '/packages/:vendor/:name/monorepo/sync',
    { schema: { tags, params: PackageParams, response: { 202: TaskSchema, ...errors } } },
    async (req, reply) => {
      const task = await monorepos.sync(
        ctxOf(req),
        packageName(req.params.vendor, req.params.name),
      );
      return reply.code(202).send(presentTask(task));
    },
  );

  app.get(
    '/packages/:vendor/:name/monorepo/children',
    {
      schema: {
        tags,
        params: PackageParams,
        querystring: PageQuery,
        response: { 200: ListOf(PackageSchema), ...errors },
      },
    },
    async (req) => {
      const { page, perPage, offset } = paging(req.query);
      const { rows, total } = await monorepos.children(
        ctxOf(req),
        packageName(req.params.vendor, req.params.name),
        { offset, limit: perPage },
      );
      return pageOf(rows.map(presentPackage), total, page, perPage);
    },
  );
}
