import { Type } from 'typebox';
import type { App } from '../../http/app-types.js';
import {
  ErrorResponses,
  IdParams,
  ListOf,
  PackageParams,
  PageQuery,
  pageOf,
  paging,
} from '../../http/schemas.js';
import { presentAccess, presentCollectionGrant, presentPackageCustomer } from './presenter.js';
import {
  AccessListSchema,
  AccessSchema,
  CollectionGrantBody,
  CollectionGrantSchema,
  CustomerCollectionParams,
  CustomerPackageParams,
  GrantBody,
  PackageCustomerSchema,
  ReplaceGrantsBody,
} from './schema.js';

const tags = ['access'];
const errors = ErrorResponses;
const noContent = { 204: Type.Null(), ...errors };

export async function accessRoutes(app: App): Promise<void> {
  const access = app.services.access;

  app.get(
    '/customers/:id/packages',
    { schema: { tags, params: IdParams, response: { 200: AccessListSchema, ...errors } } },
    async (req) => ({ data: (await access.list(req, req.params.id)).map(presentAccess) }),
  );

  app.post(
    '/customers/:id/packages',
    {
      schema: {
        tags,
        params: IdParams,
        body: GrantBody,
        response: { 200: AccessSchema, 201: AccessSchema, ...errors },
      },
    },
    async (req, reply) => {
      const { access: row, created } = await access.grant(req, req.params.id, req.body);
      return reply.code(created ? 201 : 200).send(presentAccess(row));
    },
  );

  app.put(
    '/customers/:id/packages',
    {
      schema: {
        tags,
        params: IdParams,
        body: ReplaceGrantsBody,
        response: { 200: AccessListSchema, ...errors },
      },
    },
    async (req) => ({
      data: (await access.replace(req, req.params.id, req.body)).map(presentAccess),
    }),
  );

  app.delete(
    '/customers/:id/packages/:vendor/:name',
    { schema: { tags, params: CustomerPackageParams, response: noContent } },
    async (req, reply) => {
      const { id, vendor, name } = req.params;
      await access.revoke(req, id, `${vendor}/${name}`);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/packages/:vendor/:name/customers',
    {
      schema: {
        tags,
        params: PackageParams,
        querystring: PageQuery,
        response: { 200: ListOf(PackageCustomerSchema), ...errors },
      },
    },
    async (req) => {
      const { page, perPage, offset } = paging(req.query);
      const { vendor, name } = req.params;
      const { rows, total } = await access.customersOf(req, `${vendor}/${name}`, {
        offset,
        limit: perPage,
      });
      return pageOf(rows.map(presentPackageCustomer), total, page, perPage);
    },
  );

  app.get(
    '/customers/:id/collections',
    {
      schema: {
        tags,
        params: IdParams,
        response: { 200: Type.Object({ data: Type.Array(CollectionGrantSchema) }), ...errors },
      },
    },
    async (req) => ({
      data: (await access.listCollections(req, req.params.id)).map(presentCollectionGrant),
    }),
  );

  app.post(
    '/customers/:id/collections',
    {
      schema: {
        tags,
        params: IdParams,
        body: CollectionGrantBody,
        response: { 200: CollectionGrantSchema, 201: CollectionGrantSchema, ...errors },
      },
    },
    async (req, reply) => {
      const { grant, created } = await access.grantCollection(req, req.params.id, req.body);
      return reply.code(created ? 201 : 200).send(presentCollectionGrant(grant));
    },
  );

  app.delete(
    '/customers/:id/collections/:slug',
    { schema: { tags, params: CustomerCollectionParams, response: noContent } },
    async (req, reply) => {
      await access.revokeCollection(req, req.params.id, req.params.slug);
      return reply.code(204).send(null);
    },
  );
}
