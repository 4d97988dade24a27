import type { GraphqlPart } from '../../graphql/kit.js';
import { camelKeys, query } from '../../graphql/kit.js';

const PERIOD_DAYS: Record<string, number> = {
  LAST_7_DAYS: 7,
  LAST_30_DAYS: 30,
  LAST_90_DAYS: 90,
  LAST_365_DAYS: 365,
};

/** A Period as the REST range it stands for: the last N days up to today (UTC). */
function rangeOf(period: string | null | undefined) {
  const days = PERIOD_DAYS[period ?? 'LAST_30_DAYS'] ?? 30;
  const today = Date.parse(new Date().toISOString().slice(0, 10));
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { from: day(today - (days - 1) * 86_400_000), to: day(today) };
}

export const statsGraphql: GraphqlPart = {
  typeDefs: /* GraphQL */ `
    enum Period {
      LAST_7_DAYS
      LAST_30_DAYS
      LAST_90_DAYS
      LAST_365_DAYS
    }

    type PackageDownloads {
      name: String!
      downloads: Int!
    }

    type DayDownloads {
      date: String!
      downloads: Int!
    }

    type DownloadStats {
      totalDownloads: Int!
      byPackage: [PackageDownloads!]!
      byDay: [DayDownloads!]!
    }

    type CustomerDownloads {
      customerId: String!
      name: String
      downloads: Int!
    }

    type RegistryStats {
      totalDownloads: Int!
      packages: Int!
      customers: Int!
      versions: Int!
      byDay: [DayDownloads!]!
      byPackage: [PackageDownloads!]!
      byCustomer: [CustomerDownloads!]!
    }

    extend type Query {
      downloadStats(packageName: String, period: Period): DownloadStats!
      stats: RegistryStats!
    }
  `,

  Query: {
    downloadStats: query<{ packageName?: string | null; period?: string | null }>(
      async ({ packageName, period }, ctx, s) => {
        const range = rangeOf(period);
        if (packageName) {
          const stats = await s.stats.package(ctx, packageName, range);
          return {
            totalDownloads: stats.total_downloads,
            byPackage: [{ name: stats.name, downloads: stats.total_downloads }],
            byDay: stats.by_day,
          };
        }
        const overview = await s.stats.overview(ctx, range);
        return {
          totalDownloads: overview.total_downloads,
          byPackage: overview.by_package,
          byDay: overview.by_day,
        };
      },
    ),
    stats: query(async (_args, ctx, s) => {
      const overview = await s.stats.overview(ctx, {});
      return { ...camelKeys(overview), byCustomer: overview.by_customer.map(camelKeys) };
    }),
  },
};
