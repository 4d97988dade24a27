import type { App } from '../../http/app-types.js';
import { ctxOf } from '../../http/auth.js';
import {
  ErrorBodySchema,
  IdParams,
  ListOf,
  PageQuery,
  pageOf,
  paging,
} from '../../http/schemas.js';
import { presentTask } from './presenter.js';
import { CreateTaskBody, TaskListQuery, TaskSchema } from './schema.js';
import type { TaskStatus } from './schema.js';
import type { TaskRow } from './store.js';

const tags = ['tasks'];
const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
};

export async function taskRoutes(app: App): Promise<void> {
  const { tasks, worker } = app.services;
  const present = (row: TaskRow) => presentTask(row, worker.maxAttempts(row.type));

  app.get(
    '/tasks',
    {
      schema: {
        tags,
        querystring: TaskListQuery,
        response: { 200: ListOf(TaskSchema), ...errors },
      },
    },
    async (req) => {
      const { page, perPage, offset } = paging(req.query);
      const { rows, total } = await tasks.list(ctxOf(req), {
        status: req.query.status,
        type: req.query.type,
        offset,
        limit: perPage,
      });
      return pageOf(rows.map(present), total, page, perPage);
    },
  );

  for (const status of ['pending', 'running', 'failed'] as const satisfies TaskStatus[]) {
    app.get(
      `/tasks/${status}`,
      {
        schema: { tags, querystring: PageQuery, response: { 200: ListOf(TaskSchema), ...errors } },
      },
      async (req) => {
        const { page, perPage, offset } = paging(req.query);
        const { rows, total } = await tasks.list(ctxOf(req), { status, offset, limit: perPage });
        return pageOf(rows.map(present), total, page, perPage);
      },
    );
  }

  app.get(
    '/tasks/:id',
    { schema: { tags, params: IdParams, response: { 200: TaskSchema, ...errors } } },
    async (req) => present(await tasks.get(ctxOf(req), req.params.id)),
  );

  app.post(
    '/tasks',
    { schema: { tags, body: CreateTaskBody, response: { 201: TaskSchema, ...errors } } },
    async (req, reply) => reply.code(201).send(present(await tasks.create(ctxOf(req), req.body))),
  );

  app.post(
    '/tasks/sync-all',
    { schema: { tags, response: { 202: TaskSchema, ...errors } } },
    async (req, reply) => reply.code(202).send(present(await tasks.queueSyncAll(ctxOf(req)))),
  );

  app.post(
    '/tasks/cleanup',
    { schema: { tags, response: { 202: TaskSchema, ...errors } } },
    async (req, reply) => reply.code(202).send(present(await tasks.queueCleanup(ctxOf(req)))),
  );
}
