import { Type } from 'typebox';
import type { App } from '../../http/app-types.js';
import { ctxOf } from '../../http/auth.js';
import { ErrorResponses, IdParams, ListOf, PageQuery, pageOf, paging } from '../../http/schemas.js';
import { requireFeature } from '../../editions.js';
import { presentTask } from '../tasks/presenter.js';
import { TaskSchema } from '../tasks/schema.js';
import { presentAdvisory, presentVulnerability, presentVulnerabilityDetail } from './presenter.js';
import {
  AdvisorySchema,
  CreateAdvisoryBody,
  UpdateAdvisoryBody,
  VulnerabilityDetailSchema,
  VulnerabilityListQuery,
  VulnerabilitySchema,
} from './schema.js';

const errors = ErrorResponses;

/** Vendor advisories under /api/v1/advisories (docs/advisories.md): admins write, viewers read. */
export async function advisoryRoutes(app: App): Promise<void> {
  const { advisories } = app.services;
  const tags = ['advisories'];
  const preHandler = requireFeature('security_advisories');

  app.get(
    '/advisories',
    {
      preHandler,
      schema: {
        tags,
        querystring: PageQuery,
        response: { 200: ListOf(AdvisorySchema), ...errors },
      },
    },
    async (req) => {
      const { page, perPage, offset } = paging(req.query);
      const { rows, total } = await advisories.list(ctxOf(req), { offset, limit: perPage });
      return pageOf(rows.map(presentAdvisory), total, page, perPage);
    },
  );

  app.post(
    '/advisories',
    {
      preHandler,
      schema: { tags, body: CreateAdvisoryBody, response: { 201: AdvisorySchema, ...errors } },
    },
    async (req, reply) =>
      reply.code(201).send(presentAdvisory(await advisories.create(ctxOf(req), req.body))),
  );

  app.get(
    '/advisories/:id',
    {
      preHandler,
      schema: { tags, params: IdParams, response: { 200: AdvisorySchema, ...errors } },
    },
    async (req) => presentAdvisory(await advisories.get(ctxOf(req), req.params.id)),
  );

  app.patch(
    '/advisories/:id',
    {
      preHandler,
      schema: {
        tags,
        params: IdParams,
        body: UpdateAdvisoryBody,
        response: { 200: AdvisorySchema, ...errors },
      },
    },
    async (req) => presentAdvisory(await advisories.update(ctxOf(req), req.params.id, req.body)),
  );

  app.delete(
    '/advisories/:id',
    { preHandler, schema: { tags, params: IdParams, response: { 204: Type.Null(), ...errors } } },
    async (req, reply) => {
      await advisories.delete(ctxOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  );
}

/** The Vulnerabilities group under /api/v1/vulnerabilities (docs/advisories.md). */
export async function vulnerabilityRoutes(app: App): Promise<void> {
  const { advisories, vulnerabilities, worker } = app.services;
  const tags = ['vulnerabilities'];
  const preHandler = requireFeature('vulnerabilities');

  app.get(
    '/vulnerabilities',
    {
      preHandler,
      schema: {
        tags,
        querystring: VulnerabilityListQuery,
        response: { 200: ListOf(VulnerabilitySchema), ...errors },
      },
    },
    async (req) => {
      const { page, perPage, offset } = paging(req.query);
      const { views, total } = await vulnerabilities.list(ctxOf(req), {
        package: req.query.package,
        severity: req.query.severity,
        offset,
        limit: perPage,
      });
      return pageOf(views.map(presentVulnerability), total, page, perPage);
    },
  );

  app.post(
    '/vulnerabilities/scan',
    { preHandler, schema: { tags, response: { 202: TaskSchema, ...errors } } },
    async (req, reply) => {
      const task = await advisories.queueScan(ctxOf(req));
      return reply.code(202).send(presentTask(task, worker.maxAttempts(task.type)));
    },
  );

  app.get(
    '/vulnerabilities/:id',
    {
      preHandler,
      schema: { tags, params: IdParams, response: { 200: VulnerabilityDetailSchema, ...errors } },
    },
    async (req) => presentVulnerabilityDetail(await vulnerabilities.get(ctxOf(req), req.params.id)),
  );
}
