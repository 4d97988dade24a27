import type { App } from '../../http/app-types.js';
import { ctxOf } from '../../http/auth.js';
import { ErrorResponses, ListOf, PackageParams, pageOf, paging } from '../../http/schemas.js';
import { packageName } from '../packages/service.js';
import { WebhookDeliveryService } from './deliveries.js';
import { presentDelivery } from './presenter.js';
import { DeliveryListQuery, PackageDeliveryListQuery, WebhookDeliverySchema } from './schema.js';

const tags = ['webhooks'];
const errors = ErrorResponses;

/** The recorded inbound webhook deliveries, per package and for the whole registry. */
export async function webhookDeliveryRoutes(app: App): Promise<void> {
  const deliveries = new WebhookDeliveryService(app.services.deps);

  app.get(
    '/packages/:vendor/:name/webhook-deliveries',
    {
      schema: {
        tags,
        summary: 'Webhook deliveries that matched this package, newest first',
        params: PackageParams,
        querystring: PackageDeliveryListQuery,
        response: { 200: ListOf(WebhookDeliverySchema), ...errors },
      },
    },
    async (req) => {
      const { page, perPage, offset } = paging(req.query);
      const { rows, total } = await deliveries.forPackage(
        ctxOf(req),
        packageName(req.params.vendor, req.params.name),
        { offset, limit: perPage },
      );
      return pageOf(rows.map(presentDelivery), total, page, perPage);
    },
  );

  app.get(
    '/webhooks/deliveries',
    {
      schema: {
        tags,
        summary: 'Every webhook delivery, refused and ignored ones included, newest first',
        querystring: DeliveryListQuery,
        response: { 200: ListOf(WebhookDeliverySchema), ...errors },
      },
    },
    async (req) => {
      const { page, perPage, offset } = paging(req.query);
      const { rows, total } = await deliveries.list(ctxOf(req), {
        provider: req.query.provider,
        offset,
        limit: perPage,
      });
      return pageOf(rows.map(presentDelivery), total, page, perPage);
    },
  );
}
