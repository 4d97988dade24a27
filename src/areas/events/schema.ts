import { Type } from 'typebox';
import type { Static } from 'typebox';
import { IsoDateTime } from '../../http/schemas.js';

export const EventSchema = Type.Object(
  {
    id: Type.String(),
    type: Type.String(),
    created_at: IsoDateTime,
    data: Type.Record(Type.String(), Type.Unknown()),
  },
  { $id: 'Event' },
);

export const EventFeedSchema = Type.Object({
  data: Type.Array(EventSchema),
  next: Type.Union([Type.String(), Type.Null()]),
});

/** `GET /api/v1/events`: `after` and `type` are checked by the service (for GraphQL too). */
export const EventFeedQuery = Type.Object(
  {
    after: Type.Optional(Type.String({ maxLength: 100 })),
    type: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
  },
  { additionalProperties: false },
);
export type EventFeedInput = Static<typeof EventFeedQuery>;
