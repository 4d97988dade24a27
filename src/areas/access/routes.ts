import { Type } from 'typebox';
import type { App } from '../../http/app-types.js';
import { ctxOf } from '../../http/auth.js';
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
    {
      schema: {
        tags,
        summary: "The customer's access: direct grants and packages reached through collections",
        params: IdParams,
        querystring: PageQuery,
        response: { 200: ListOf(AccessSchema), ...errors },
      },
    },
    async (req) => {
      const { page, perPage, offset } = paging(req.query);
      const { rows, total } = await access.list(ctxOf(req), req.params.id, {
        offset,
        limit: perPage,
      });
      return pageOf(rows.map(presentAccess), total, page, perPage);
    },
  );

  app.post(
    '/customers/:id/packages',
    {
      schema: {
        tags,
        summary: 'Grants one package; 409 when the customer already has a direct grant for it',
        params: IdParams,
        body: GrantBody,
        response: { 201: AccessSchema, ...errors },
      },
    },
    async (req, reply) => {
      const { access: row } = await access.grant(ctxOf(req), req.params.id, req.body, {
        onExisting: 'conflict',
      });
      return reply.code(201).send(presentAccess(row));
    },
  );

  app.put(
    '/customers/:id/packages',
    {
      schema: {
        tags,
        summary: 'Replaces the direct grants; answers the first page of the resulting access',
        params: IdParams,
        body: ReplaceGrantsBody,
        response: { 200: ListOf(AccessSchema), ...errors },
      },
    },
    async (req) => {
      const { page, perPage, offset } = paging({});
      const { rows, total } = await access.replace(ctxOf(req), req.params.id, req.body, {
        offset,
        limit: perPage,
      });
      return pageOf(rows.map(presentAccess), total, page, perPage);
    },
  );

  app.delete(
    '/customers/:id/packages/:vendor/:name',
    { schema: { tags, params: CustomerPackageParams, response: noContent } },
    async (req, reply) => {
      const { id, vendor, name } = req.params;
      await access.revoke(ctxOf(req), id, `${vendor}/${name}`);
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
      const { rows, total } = await access.customersOf(ctxOf(req), `${vendor}/${name}`, {
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
        querystring: PageQuery,
        response: { 200: ListOf(CollectionGrantSchema), ...errors },
      },
    },
    async (req) => {
      const { page, perPage, offset } = paging(req.query);
      // A customer holds few collection grants: paged in memory.
      const all = await access.listCollections(ctxOf(req), req.params.id);
      const shown = all.slice(offset, offset + perPage).map(presentCollectionGrant);
      return pageOf(shown, all.length, page, perPage);
    },
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
      const { grant, created } = await access.grantCollection(ctxOf(req), req.params.id, req.body);
      return reply.code(created ? 201 : 200).send(presentCollectionGrant(grant));
    },
  );

  app.delete(
    '/customers/:id/collections/:slug',
    { schema: { tags, params: CustomerCollectionParams, response: noContent } },
    async (req, reply) => {
      await access.revokeCollection(ctxOf(req), req.params.id, req.params.slug);
      return reply.code(204).send(null);
    },
  );
}
