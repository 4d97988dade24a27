import { Type } from 'typebox';
import type { Static } from 'typebox';
import { IsoDateTime, Nullable } from '../../http/schemas.js';

export const TenantSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  subdomain: Type.String(),
  plan: Type.String(),
  status: Type.Union([Type.Literal('active'), Type.Literal('suspended')]),
  created_at: IsoDateTime,
  updated_at: IsoDateTime,
});
export type TenantDto = Static<typeof TenantSchema>;

const Name = Type.String({ minLength: 1, maxLength: 255 });
/** A lower-case DNS label of 2-63 characters (docs/cloud.md). */
const Subdomain = Type.String({ minLength: 2, maxLength: 63 });
const Plan = Type.String({ minLength: 1, maxLength: 32 });

export const CreateTenantBody = Type.Object(
  { name: Name, subdomain: Subdomain, plan: Type.Optional(Plan) },
  { additionalProperties: false },
);
export type CreateTenantInput = Static<typeof CreateTenantBody>;

export const UpdateTenantBody = Type.Object({ name: Name }, { additionalProperties: false });
export const ChangePlanBody = Type.Object({ plan: Plan }, { additionalProperties: false });

const Used = Type.Integer({ minimum: 0 });
const Limit = Nullable(Type.Integer({ minimum: 0 }));

export const TenantUsageSchema = Type.Object({
  tenant_id: Type.String(),
  plan: Type.String(),
  period: Type.String({ pattern: '^\\d{4}-\\d{2}$' }),
  usage: Type.Object({
    bandwidth_bytes: Used,
    storage_bytes: Used,
    packages: Used,
    customers: Used,
  }),
  /** null = unlimited. */
  limits: Type.Object({
    bandwidth_bytes: Limit,
    storage_bytes: Limit,
    packages: Limit,
    customers: Limit,
  }),
});

const Metric = Type.Union([
  Type.Literal('bandwidth_bytes'),
  Type.Literal('storage_bytes'),
  Type.Literal('packages'),
  Type.Literal('customers'),
]);

/** An item of `GET /tenants/{id}/notifications` (docs/cloud.md). */
export const UsageNotificationSchema = Type.Object({
  id: Type.String(),
  type: Type.Union([Type.Literal('usage_warning'), Type.Literal('usage_limit_reached')]),
  metric: Metric,
  percent: Type.Union([Type.Literal(80), Type.Literal(100)]),
  value: Used,
  limit: Used,
  created_at: Type.String(),
});

export const CreatedTenantSchema = Type.Object({
  tenant: TenantSchema,
  owner_token: Type.String(),
});
