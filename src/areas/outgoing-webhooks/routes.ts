import { Type } from 'typebox';
import type { App } from '../../http/app-types.js';
import { ctxOf } from '../../http/auth.js';
import { ErrorResponses, ListOf, PageQuery, pageOf, paging } from '../../http/schemas.js';
import { requireFeature } from '../../editions.js';
import { presentDelivery, presentEndpoint } from './presenter.js';
import {
  CreateEndpointBody,
  CreatedEndpointSchema,
  DeliveryParams,
  DeliverySchema,
  EndpointParams,
  EndpointSchema,
  UpdateEndpointBody,
} from './schema.js';

const errors = ErrorResponses;

/** `/api/v1/webhook-endpoints` (docs/webhooks-outgoing.md): admins write, viewers read. */
export async function outgoingWebhookRoutes(app: App): Promise<void> {
  const service = () => app.services.outgoingWebhooks;
  const tags = ['webhook-endpoints'];
  const preHandler = requireFeature('outgoing_webhooks');

  app.get(
    '/webhook-endpoints',
    {
      preHandler,
      schema: {
        tags,
        querystring: PageQuery,
        response: { 200: ListOf(EndpointSchema), ...errors },
      },
    },
    async (req) => {
      const { page, perPage, offset } = paging(req.query);
      const { rows, total } = await service().list(ctxOf(req), { offset, limit: perPage });
      return pageOf(rows.map(presentEndpoint), total, page, perPage);
    },
  );

  app.post(
    '/webhook-endpoints',
    {
      preHandler,
      schema: {
        tags,
        body: CreateEndpointBody,
        response: { 201: CreatedEndpointSchema, ...errors },
      },
    },
    async (req, reply) => {
      const { row, secret } = await service().create(ctxOf(req), req.body);
      const { secret_set: _shown, ...dto } = presentEndpoint(row);
      return reply.code(201).send({ ...dto, secret });
    },
  );

  app.get(
    '/webhook-endpoints/:id',
    {
      preHandler,
      schema: { tags, params: EndpointParams, response: { 200: EndpointSchema, ...errors } },
    },
    async (req) => presentEndpoint(await service().get(ctxOf(req), req.params.id)),
  );

  app.patch(
    '/webhook-endpoints/:id',
    {
      preHandler,
      schema: {
        tags,
        params: EndpointParams,
        body: UpdateEndpointBody,
        response: { 200: EndpointSchema, ...errors },
      },
    },
    async (req) => presentEndpoint(await service().update(ctxOf(req), req.params.id, req.body)),
  );

  app.delete(
    '/webhook-endpoints/:id',
    {
      preHandler,
      schema: { tags, params: EndpointParams, response: { 204: Type.Null(), ...errors } },
    },
    async (req, reply) => {
      await service().delete(ctxOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/webhook-endpoints/:id/deliveries',
    {
      preHandler,
      schema: {
        tags,
        params: EndpointParams,
        querystring: PageQuery,
        response: { 200: ListOf(DeliverySchema), ...errors },
      },
    },
    async (req) => {
      const { page, perPage, offset } = paging(req.query);
      const { rows, total } = await service().deliveries(ctxOf(req), req.params.id, {
        offset,
        limit: perPage,
      });
      return pageOf(rows.map(presentDelivery), total, page, perPage);
    },
  );

  app.post(
    '/webhook-endpoints/:id/deliveries/:delivery_id/redeliver',
    {
      preHandler,
      schema: { tags, params: DeliveryParams, response: { 202: DeliverySchema, ...errors } },
    },
    async (req, reply) => {
      const row = await service().redeliver(ctxOf(req), req.params.id, req.params.delivery_id);
      return reply.code(202).send(presentDelivery(row));
    },
  );

  app.post(
    '/webhook-endpoints/:id/ping',
    {
      preHandler,
      schema: { tags, params: EndpointParams, response: { 202: DeliverySchema, ...errors } },
    },
    async (req, reply) => {
      const row = await service().ping(ctxOf(req), req.params.id);
      return reply.code(202).send(presentDelivery(row));
    },
  );
}
