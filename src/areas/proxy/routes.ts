import type { App } from '../../http/app-types.js';
import { ctxOf } from '../../http/auth.js';
import {
  ErrorResponses,
  ListOf,
  PackageParams,
  PageQuery,
  pageOf,
  paging,
} from '../../http/schemas.js';
import { requireFeature } from '../../editions.js';
import { presentAlert } from './presenter.js';
import {
  FrozenPackageSchema,
  ProxyAlertSchema,
  ProxyStatsQuery,
  ProxyStatsSchema,
  ProxyStatusSchema,
  PurgeBody,
  PurgeResultSchema,
} from './schema.js';

const tags = ['proxy'];
const gate = requireFeature('proxy');

/** The proxy's admin API under /api/v1/proxy (docs/proxy.md); viewers read only. */
export async function proxyRoutes(app: App): Promise<void> {
  const admin = app.services.proxyAdmin;

  app.get(
    '/proxy/status',
    { preHandler: gate, schema: { tags, response: { 200: ProxyStatusSchema, ...ErrorResponses } } },
    async (req) => admin.status(ctxOf(req)),
  );

  app.get(
    '/proxy/stats',
    {
      preHandler: gate,
      schema: {
        tags,
        querystring: ProxyStatsQuery,
        response: { 200: ProxyStatsSchema, ...ErrorResponses },
      },
    },
    async (req) => admin.stats(ctxOf(req), req.query),
  );

  app.post(
    '/proxy/purge',
    {
      preHandler: gate,
      schema: { tags, body: PurgeBody, response: { 200: PurgeResultSchema, ...ErrorResponses } },
    },
    async (req) => admin.purge(ctxOf(req), req.body),
  );

  for (const action of ['freeze', 'unfreeze'] as const) {
    app.post(
      `/proxy/${action}/:vendor/:name`,
      {
        preHandler: gate,
        schema: {
          tags,
          params: PackageParams,
          response: { 200: FrozenPackageSchema, ...ErrorResponses },
        },
      },
      async (req) => admin[action](ctxOf(req), `${req.params.vendor}/${req.params.name}`),
    );
  }

  app.get(
    '/proxy/alerts',
    {
      preHandler: gate,
      schema: {
        tags,
        querystring: PageQuery,
        response: { 200: ListOf(ProxyAlertSchema), ...ErrorResponses },
      },
    },
    async (req) => {
      const { page, perPage, offset } = paging(req.query);
      const { rows, total } = await admin.alerts(ctxOf(req), { offset, limit: perPage });
      return pageOf(rows.map(presentAlert), total, page, perPage);
    },
  );
}
