import { Type } from 'typebox';
import type { App } from '../../http/app-types.js';
import { ctxOf } from '../../http/auth.js';
import { ErrorResponses, ListOf, PackageParams, pageOf, paging } from '../../http/schemas.js';
import { TaskSchema } from '../tasks/schema.js';
import { presentTask } from '../tasks/presenter.js';
import { presentPackage, presentPackageDetail, presentVersion } from './presenter.js';
import {
  AddPackageBody,
  PackageDetailSchema,
  PackageListQuery,
  PackageSchema,
  ReadmeSchema,
  ValidationReportSchema,
  VersionParams,
  VersionSchema,
} from './schema.js';
import { packageName } from './service.js';

const tags = ['packages'];
const errors = ErrorResponses;

export async function packageRoutes(app: App): Promise<void> {
  const packages = app.services.packages;

  app.get(
    '/packages',
    {
      schema: {
        tags,
        querystring: PackageListQuery,
        response: { 200: ListOf(PackageSchema), ...errors },
      },
    },
    async (req) => {
      const { page, perPage, offset } = paging(req.query);
      const { rows, total } = await packages.list(ctxOf(req), {
        q: req.query.q,
        offset,
        limit: perPage,
      });
      return pageOf(rows.map(presentPackage), total, page, perPage);
    },
  );

  app.post(
    '/packages',
    {
      schema: {
        tags,
        body: AddPackageBody,
        response: {
          201: Type.Object({
            ...PackageSchema.properties,
            sync_task: Type.Union([TaskSchema, Type.Null()]),
          }),
          ...errors,
        },
      },
    },
    async (req, reply) => {
      const { row, task } = await packages.add(ctxOf(req), req.body);
      return reply.code(201).send({ ...presentPackage(row), sync_task: task && presentTask(task) });
    },
  );

  app.get(
    '/packages/:vendor/:name',
    { schema: { tags, params: PackageParams, response: { 200: PackageDetailSchema, ...errors } } },
    async (req) => {
      const { row, versions, downloads } = await packages.detail(
        ctxOf(req),
        packageName(req.params.vendor, req.params.name),
      );
      return presentPackageDetail(row, versions, downloads);
    },
  );

  app.delete(
    '/packages/:vendor/:name',
    { schema: { tags, params: PackageParams, response: { 204: Type.Null(), ...errors } } },
    async (req, reply) => {
      await packages.delete(ctxOf(req), packageName(req.params.vendor, req.params.name));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/packages/:vendor/:name/sync',
    {
      schema: { tags, params: PackageParams, response: { 202: TaskSchema, ...errors } },
    },
    async (req, reply) => {
      const task = await packages.requestSync(
        ctxOf(req),
        packageName(req.params.vendor, req.params.name),
      );
      return reply.code(202).send(presentTask(task));
    },
  );

  const flagRoute = (path: string, flag: 'yanked' | 'deprecated', value: boolean) =>
    app.post(
      `/packages/:vendor/:name/${path}/:version`,
      {
        schema: { tags, params: VersionParams, response: { 200: VersionSchema, ...errors } },
        // The answer shows the version's downloads: count every one served so far, as GETs do.
        preHandler: async () => app.services.composer.usage.flush(),
      },
      async (req) => {
        const { vendor, name, version } = req.params;
        const flagged = await packages.setFlag(
          ctxOf(req),
          packageName(vendor, name),
          version,
          flag,
          value,
        );
        return presentVersion(flagged.version, flagged.downloads);
      },
    );
  flagRoute('yank', 'yanked', true);
  flagRoute('unyank', 'yanked', false);
  flagRoute('deprecate', 'deprecated', true);

  app.get(
    '/packages/:vendor/:name/readme',
    { schema: { tags, params: PackageParams, response: { 200: ReadmeSchema, ...errors } } },
    async (req) => {
      const row = await packages.get(ctxOf(req), packageName(req.params.vendor, req.params.name));
      return { name: row.name, format: 'markdown' as const, content: row.readme };
    },
  );

  app.post(
    '/packages/:vendor/:name/validate',
    {
      schema: { tags, params: PackageParams, response: { 200: ValidationReportSchema, ...errors } },
    },
    async (req) => packages.validate(ctxOf(req), packageName(req.params.vendor, req.params.name)),
  );

  app.get(
    '/packages/:vendor/:name/download/:version',
    {
      schema: {
        tags,
        params: VersionParams,
        response: { 200: Type.Unknown({ description: 'zip archive' }), ...errors },
      },
    },
    async (req, reply) => {
      const { vendor, name, version } = req.params;
      const found = await packages.archive(ctxOf(req), packageName(vendor, name), version);
      const file = `${found.pkg.name.replace('/', '-')}-${found.version.version}.zip`.replace(
        /[^\w.-]/g,
        '_',
      );
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="${file}"`)
        .header('content-length', String(found.archive.size))
        .send(found.archive.body);
    },
  );
}
