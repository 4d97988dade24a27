import { Type } from 'typebox';
import type { App } from '../../http/app-types.js';
import { ctxOf } from '../../http/auth.js';
import { ErrorBodySchema, PackageParams } from '../../http/schemas.js';
import {
  DailyStatsSchema,
  OverviewSchema,
  PackageStatsSchema,
  StatsQuery,
  VersionStatsSchema,
} from './schema.js';

const tags = ['stats'];
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema };
const VersionParams = Type.Object({
  ...PackageParams.properties,
  version: Type.String({ minLength: 1, maxLength: 255 }),
});

/** Download statistics under /api/v1/stats; readable by every admin level. */
export async function statsRoutes(app: App): Promise<void> {
  const stats = app.services.stats;

  app.get(
    '/stats',
    { schema: { tags, querystring: StatsQuery, response: { 200: OverviewSchema, ...errors } } },
    async (req) => stats.overview(ctxOf(req), req.query),
  );

  app.get(
    '/stats/daily',
    { schema: { tags, querystring: StatsQuery, response: { 200: DailyStatsSchema, ...errors } } },
    async (req) => stats.daily(ctxOf(req), req.query),
  );

  app.get(
    '/stats/packages/:vendor/:name',
    {
      schema: {
        tags,
        params: PackageParams,
        querystring: StatsQuery,
        response: { 200: PackageStatsSchema, ...errors },
      },
    },
    async (req) => stats.package(ctxOf(req), `${req.params.vendor}/${req.params.name}`, req.query),
  );

  app.get(
    '/stats/packages/:vendor/:name/versions/:version',
    {
      schema: {
        tags,
        params: VersionParams,
        querystring: StatsQuery,
        response: { 200: VersionStatsSchema, ...errors },
      },
    },
    async (req) =>
      stats.version(
        ctxOf(req),
        `${req.params.vendor}/${req.params.name}`,
        req.params.version,
        req.query,
      ),
  );
}
