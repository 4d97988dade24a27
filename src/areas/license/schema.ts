import { Type } from 'typebox';
import { FEATURES } from '../../editions.js';
import { EDITIONS } from '../../config/index.js';
import { IsoDateTime, Nullable } from '../../http/schemas.js';

/** GET /api/v1/license (docs/operations.md); a null limit means unlimited (or n/a). */
export const LicenseSchema = Type.Object(
  {
    edition: Type.Enum(EDITIONS),
    licensee: Type.String(),
    expires_at: Nullable(IsoDateTime),
    features: Type.Array(Type.Enum(FEATURES)),
    limits: Type.Object({
      graphql_complexity: Nullable(Type.Integer()),
      bandwidth_bytes: Nullable(Type.Integer()),
      storage_bytes: Nullable(Type.Integer()),
    }),
  },
  { $id: 'License' },
);
