import { Type } from 'typebox';
import type { App } from '../../http/app-types.js';
import { ctxOf } from '../../http/auth.js';
import { ErrorResponses, ListOf, PageQuery, pageOf, paging } from '../../http/schemas.js';
import { presentCollection } from './presenter.js';
import {
  CollectionSchema,
  CreateCollectionBody,
  SlugParams,
  UpdateCollectionBody,
} from './schema.js';

const tags = ['collections'];
const errors = ErrorResponses;

export async function collectionRoutes(app: App): Promise<void> {
  const collections = app.services.collections;

  app.get(
    '/collections',
    {
      schema: {
        tags,
        querystring: PageQuery,
        response: { 200: ListOf(CollectionSchema), ...errors },
      },
    },
    async (req) => {
      const { page, perPage, offset } = paging(req.query);
      const { views, total } = await collections.list(ctxOf(req), { offset, limit: perPage });
      return pageOf(views.map(presentCollection), total, page, perPage);
    },
  );

  app.post(
    '/collections',
    {
      schema: { tags, body: CreateCollectionBody, response: { 201: CollectionSchema, ...errors } },
    },
    async (req, reply) =>
      reply.code(201).send(presentCollection(await collections.create(ctxOf(req), req.body))),
  );

  app.get(
    '/collections/:slug',
    { schema: { tags, params: SlugParams, response: { 200: CollectionSchema, ...errors } } },
    async (req) => presentCollection(await collections.get(ctxOf(req), req.params.slug)),
  );

  app.patch(
    '/collections/:slug',
    {
      schema: {
        tags,
        params: SlugParams,
        body: UpdateCollectionBody,
        response: { 200: CollectionSchema, ...errors },
      },
    },
    async (req) =>
      presentCollection(await collections.update(ctxOf(req), req.params.slug, req.body)),
  );

  app.delete(
    '/collections/:slug',
    { schema: { tags, params: SlugParams, response: { 204: Type.Null(), ...errors } } },
    async (req, reply) => {
      await collections.delete(ctxOf(req), req.params.slug);
      return reply.code(204).send(null);
    },
  );
}
