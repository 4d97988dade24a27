import { Type } from 'typebox';
import type { Static } from 'typebox';
import { Nullable } from '../../http/schemas.js';

/** YYYY-MM-DD; whether it names a real day is checked by the service. */
const DateParam = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

export const StatsQuery = Type.Object(
  {
    from: Type.Optional(DateParam),
    to: Type.Optional(DateParam),
    customer_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type StatsQueryInput = Static<typeof StatsQuery>;

const Count = Type.Integer({ minimum: 0 });

export const DayCountSchema = Type.Object({ date: Type.String(), downloads: Count });
export type DayCount = Static<typeof DayCountSchema>;

export const OverviewSchema = Type.Object(
  {
    total_downloads: Count,
    packages: Count,
    customers: Count,
    versions: Count,
    by_day: Type.Array(DayCountSchema),
    by_package: Type.Array(Type.Object({ name: Type.String(), downloads: Count })),
    by_customer: Type.Array(
      Type.Object({ customer_id: Type.String(), name: Nullable(Type.String()), downloads: Count }),
    ),
  },
  { $id: 'StatsOverview' },
);
export type OverviewDto = Static<typeof OverviewSchema>;

export const PackageStatsSchema = Type.Object(
  {
    name: Type.String(),
    total_downloads: Count,
    by_version: Type.Array(Type.Object({ version: Type.String(), downloads: Count })),
    by_day: Type.Array(DayCountSchema),
  },
  { $id: 'PackageStats' },
);
export type PackageStatsDto = Static<typeof PackageStatsSchema>;

export const VersionStatsSchema = Type.Object(
  {
    name: Type.String(),
    version: Type.String(),
    total_downloads: Count,
    by_day: Type.Array(DayCountSchema),
  },
  { $id: 'VersionStats' },
);
export type VersionStatsDto = Static<typeof VersionStatsSchema>;

export const DailyStatsSchema = Type.Object(
  { data: Type.Array(DayCountSchema) },
  { $id: 'DailyStats' },
);
export type DailyStatsDto = Static<typeof DailyStatsSchema>;
