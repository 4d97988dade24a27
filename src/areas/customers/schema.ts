import { Type } from 'typebox';
import type { Static } from 'typebox';
import { IsoDateTime, Nullable, PageNumber } from '../../http/schemas.js';

export const CUSTOMER_STATUSES = ['ACTIVE', 'SUSPENDED', 'FROZEN', 'EXPIRED'] as const;
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];
const Status = Type.Union([
  Type.Literal('ACTIVE'),
  Type.Literal('SUSPENDED'),
  Type.Literal('FROZEN'),
  Type.Literal('EXPIRED'),
]);

export const CustomerSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    email: Type.String(),
    external_id: Nullable(Type.String()),
    status: Status,
    status_reason: Nullable(Type.String()),
    access_expires_at: Nullable(IsoDateTime),
    created_at: IsoDateTime,
    updated_at: IsoDateTime,
  },
  { $id: 'Customer' },
);
export type CustomerDto = Static<typeof CustomerSchema>;

const Name = Type.String({ minLength: 1, maxLength: 255 });
const Email = Type.String({ format: 'email', maxLength: 255 });
const ExternalId = Type.String({ minLength: 1, maxLength: 255 });

export const CreateCustomerBody = Type.Object(
  {
    name: Name,
    email: Email,
    external_id: Type.Optional(Nullable(ExternalId)),
    access_expires_at: Type.Optional(Nullable(IsoDateTime)),
  },
  { additionalProperties: false },
);
export type CreateCustomerInput = Static<typeof CreateCustomerBody>;

export const UpdateCustomerBody = Type.Object(
  {
    name: Type.Optional(Name),
    email: Type.Optional(Email),
    external_id: Type.Optional(Nullable(ExternalId)),
    access_expires_at: Type.Optional(Nullable(IsoDateTime)),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateCustomerInput = Static<typeof UpdateCustomerBody>;

export const SuspendBody = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: 1000 })) },
  { additionalProperties: false },
);

/** Freeze: without `versions` (or with an empty list) it freezes every version visible now. */
export const FreezeBody = Type.Object(
  {
    versions: Type.Optional(
      Type.Array(
        Type.Object(
          { package: Type.String({ minLength: 1 }), version: Type.String({ minLength: 1 }) },
          { additionalProperties: false },
        ),
        { maxItems: 1000 },
      ),
    ),
  },
  { additionalProperties: false },
);
export type FreezeInput = Static<typeof FreezeBody>;

export const CustomerListQuery = Type.Object(
  {
    status: Type.Optional(Status),
    page: Type.Optional(PageNumber),
    per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  { additionalProperties: false },
);
