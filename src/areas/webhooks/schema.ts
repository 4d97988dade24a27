import { Type } from 'typebox';
import type { Static } from 'typebox';
import { IsoDateTime, Nullable, PageNumber } from '../../http/schemas.js';
import { WEBHOOK_PROVIDERS } from './types.js';

export const DELIVERY_STATUSES = [
  'queued',
  'processed',
  'ignored',
  'duplicate',
  'rejected',
  'failed',
] as const;

export const WebhookDeliverySchema = Type.Object(
  {
    id: Type.String(),
    provider: Type.String(),
    event: Type.String(),
    delivery_id: Nullable(Type.String()),
    status: Type.Union(DELIVERY_STATUSES.map((s) => Type.Literal(s))),
    signature_ok: Type.Boolean(),
    packages: Type.Array(Type.String()),
    message: Nullable(Type.String()),
    duration_ms: Type.Integer(),
    received_at: IsoDateTime,
  },
  { $id: 'WebhookDelivery' },
);
export type WebhookDeliveryDto = Static<typeof WebhookDeliverySchema>;

const paging = {
  page: Type.Optional(PageNumber),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
};

export const PackageDeliveryListQuery = Type.Object(paging, { additionalProperties: false });

export const DeliveryListQuery = Type.Object(
  {
    ...paging,
    provider: Type.Optional(Type.Union(WEBHOOK_PROVIDERS.map((p) => Type.Literal(p)))),
  },
  { additionalProperties: false },
);
export type DeliveryListInput = Static<typeof DeliveryListQuery>;
