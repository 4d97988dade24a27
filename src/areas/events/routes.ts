import type { App } from '../../http/app-types.js';
import { ctxOf } from '../../http/auth.js';
import { ErrorResponses } from '../../http/schemas.js';
import { requireFeature } from '../../editions.js';
import { EventFeedQuery, EventFeedSchema } from './schema.js';

export async function eventRoutes(app: App): Promise<void> {
  app.get(
    '/events',
    {
      preHandler: requireFeature('outgoing_webhooks'),
      schema: {
        tags: ['events'],
        querystring: EventFeedQuery,
        response: { 200: EventFeedSchema, ...ErrorResponses },
      },
    },
    async (req) => app.services.events.list(ctxOf(req), req.query),
  );
}
