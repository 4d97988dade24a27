import { Type } from 'typebox';
import type { App } from '../../http/app-types.js';
import { ctxOf } from '../../http/auth.js';
import { ErrorResponses, IdParams, ListOf, pageOf, paging } from '../../http/schemas.js';
import { presentCustomer } from './presenter.js';
import {
  CreateCustomerBody,
  CustomerListQuery,
  CustomerSchema,
  FreezeBody,
  SuspendBody,
  UpdateCustomerBody,
} from './schema.js';

const tags = ['customers'];
const errors = ErrorResponses;

export async function customerRoutes(app: App): Promise<void> {
  const customers = app.services.customers;

  app.post(
    '/customers',
    { schema: { tags, body: CreateCustomerBody, response: { 201: CustomerSchema, ...errors } } },
    async (req, reply) =>
      reply.code(201).send(presentCustomer(await customers.create(ctxOf(req), req.body))),
  );

  app.get(
    '/customers',
    {
      schema: {
        tags,
        querystring: CustomerListQuery,
        response: { 200: ListOf(CustomerSchema), ...errors },
      },
    },
    async (req) => {
      const { page, perPage, offset } = paging(req.query);
      const { rows, total } = await customers.list(ctxOf(req), {
        status: req.query.status,
        offset,
        limit: perPage,
      });
      return pageOf(rows.map(presentCustomer), total, page, perPage);
    },
  );

  app.get(
    '/customers/by-external/:external_id',
    {
      schema: {
        tags,
        params: Type.Object({ external_id: Type.String({ minLength: 1, maxLength: 255 }) }),
        response: { 200: CustomerSchema, ...errors },
      },
    },
    async (req) =>
      presentCustomer(await customers.getByExternalId(ctxOf(req), req.params.external_id)),
  );

  app.get(
    '/customers/:id',
    { schema: { tags, params: IdParams, response: { 200: CustomerSchema, ...errors } } },
    async (req) => presentCustomer(await customers.get(ctxOf(req), req.params.id)),
  );

  app.patch(
    '/customers/:id',
    {
      schema: {
        tags,
        params: IdParams,
        body: UpdateCustomerBody,
        response: { 200: CustomerSchema, ...errors },
      },
    },
    async (req) => presentCustomer(await customers.update(ctxOf(req), req.params.id, req.body)),
  );

  app.delete(
    '/customers/:id',
    { schema: { tags, params: IdParams, response: { 204: Type.Null(), ...errors } } },
    async (req, reply) => {
      await customers.delete(ctxOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/customers/:id/suspend',
    {
      schema: {
        tags,
        params: IdParams,
        body: SuspendBody,
        response: { 200: CustomerSchema, ...errors },
      },
    },
    async (req) =>
      presentCustomer(await customers.suspend(ctxOf(req), req.params.id, req.body.reason)),
  );

  app.post(
    '/customers/:id/reactivate',
    { schema: { tags, params: IdParams, response: { 200: CustomerSchema, ...errors } } },
    async (req) => presentCustomer(await customers.reactivate(ctxOf(req), req.params.id)),
  );

  app.post(
    '/customers/:id/freeze',
    {
      schema: {
        tags,
        params: IdParams,
        body: FreezeBody,
        response: {
          200: Type.Object({
            ...CustomerSchema.properties,
            frozen_versions: Type.Array(
              Type.Object({ package: Type.String(), version: Type.String() }),
            ),
          }),
          ...errors,
        },
      },
    },
    async (req) => {
      const row = await customers.freeze(ctxOf(req), req.params.id, req.body);
      return {
        ...presentCustomer(row),
        frozen_versions: await customers.frozenVersions(ctxOf(req), row.id),
      };
    },
  );
}
