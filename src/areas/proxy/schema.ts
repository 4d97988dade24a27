import { Type } from 'typebox';
import { IsoDateTime, Nullable } from '../../http/schemas.js';

const Count = Type.Integer({ minimum: 0 });

export const ProxyStatusSchema = Type.Object(
  {
    enabled: Type.Boolean(),
    upstream_url: Nullable(Type.String()),
    upstream_reachable: Type.Boolean(),
    last_success_at: Nullable(IsoDateTime),
    last_error: Nullable(Type.String()),
    metadata_ttl_seconds: Count,
    visibility: Type.Union([Type.Literal('all'), Type.Literal('granted')]),
    cached_packages: Count,
    cached_archives: Count,
    cached_bytes: Count,
    frozen_packages: Count,
  },
  { $id: 'ProxyStatus' },
);

const DateParam = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

export const ProxyStatsQuery = Type.Object(
  { from: Type.Optional(DateParam), to: Type.Optional(DateParam) },
  { additionalProperties: false },
);

export const ProxyStatsSchema = Type.Object(
  {
    metadata_hits: Count,
    metadata_misses: Count,
    stale_served: Count,
    archive_hits: Count,
    archive_misses: Count,
    upstream_errors: Count,
    bytes_from_upstream: Count,
    bytes_served: Count,
    by_package: Type.Array(Type.Object({ name: Type.String(), downloads: Count })),
  },
  { $id: 'ProxyStats' },
);

export const PurgeBody = Type.Object(
  { package: Type.Optional(Type.String({ minLength: 3, maxLength: 255 })) },
  { additionalProperties: false },
);

export const PurgeResultSchema = Type.Object({
  purged_packages: Count,
  purged_archives: Count,
  freed_bytes: Count,
});

export const FrozenPackageSchema = Type.Object({
  name: Type.String(),
  frozen: Type.Boolean(),
  frozen_at: Nullable(IsoDateTime),
  versions: Type.Array(Type.String()),
});

export const ProxyAlertSchema = Type.Object({
  id: Type.String(),
  type: Type.Union([
    Type.Literal('upstream_unreachable'),
    Type.Literal('upstream_recovered'),
    Type.Literal('advisory'),
  ]),
  package: Nullable(Type.String()),
  message: Type.String(),
  created_at: IsoDateTime,
});
