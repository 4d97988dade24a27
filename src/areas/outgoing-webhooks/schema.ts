import { Type } from 'typebox';
import type { Static } from 'typebox';
import { IsoDateTime, Nullable, PageNumber } from '../../http/schemas.js';
import { EVENT_TYPES } from '../events/types.js';

const EventTypeName = Type.Union(EVENT_TYPES.map((t) => Type.Literal(t)));
const Url = Type.String({ minLength: 1, maxLength: 2000 });
const Secret = Type.String({ minLength: 16, maxLength: 200 });
const Description = Nullable(Type.String({ maxLength: 500 }));
const Events = Type.Array(EventTypeName, { minItems: 1, maxItems: 50, uniqueItems: true });

export const CreateEndpointBody = Type.Object(
  {
    url: Url,
    events: Events,
    description: Type.Optional(Description),
    secret: Type.Optional(Secret),
  },
  { additionalProperties: false },
);
export type CreateEndpointInput = Static<typeof CreateEndpointBody>;

export const UpdateEndpointBody = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    description: Type.Optional(Description),
    active: Type.Optional(Type.Boolean()),
    secret: Type.Optional(Secret),
  },
  { additionalProperties: false },
);
export type UpdateEndpointInput = Static<typeof UpdateEndpointBody>;

const endpointFields = {
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  description: Nullable(Type.String()),
  active: Type.Boolean(),
  created_at: IsoDateTime,
};

/** Every read of an endpoint: the secret is never shown again. */
export const EndpointSchema = Type.Object(
  { ...endpointFields, secret_set: Type.Boolean() },
  { $id: 'WebhookEndpoint' },
);
export type EndpointDto = Static<typeof EndpointSchema>;

/** The creation's answer, the one place the secret appears. */
export const CreatedEndpointSchema = Type.Object({ ...endpointFields, secret: Type.String() });

export const DeliverySchema = Type.Object(
  {
    id: Type.String(),
    event_id: Type.String(),
    event_type: Type.String(),
    status: Type.Union([
      Type.Literal('pending'),
      Type.Literal('succeeded'),
      Type.Literal('failed'),
    ]),
    attempts: Type.Integer(),
    response_status: Nullable(Type.Integer()),
    response_body: Nullable(Type.String()),
    error: Nullable(Type.String()),
    duration_ms: Nullable(Type.Integer()),
    created_at: IsoDateTime,
    next_attempt_at: Nullable(IsoDateTime),
  },
  { $id: 'OutgoingWebhookDelivery' },
);
export type DeliveryDto = Static<typeof DeliverySchema>;

export const EndpointParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
export const DeliveryParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  delivery_id: Type.String({ minLength: 1, maxLength: 100 }),
});

export const ListQuery = Type.Object(
  {
    page: Type.Optional(PageNumber),
    per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  { additionalProperties: false },
);
