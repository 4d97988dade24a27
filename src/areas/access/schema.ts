import { Type } from 'typebox';
import type { Static } from 'typebox';
import { IsoDateTime, Nullable } from '../../http/schemas.js';

const PackageName = Type.String({ minLength: 1, maxLength: 255 });
const ConstraintString = Type.String({ minLength: 1, maxLength: 255 });

export const AccessSchema = Type.Object({
  package: Type.String(),
  constraint: Type.String(),
  granted_at: IsoDateTime,
  via_collection: Nullable(Type.String()),
});
export type AccessDto = Static<typeof AccessSchema>;

const GrantItem = Type.Object(
  { package: PackageName, constraint: Type.Optional(ConstraintString) },
  { additionalProperties: false },
);
export const GrantBody = GrantItem;
export type GrantInput = Static<typeof GrantBody>;

export const ReplaceGrantsBody = Type.Object(
  { packages: Type.Array(GrantItem, { maxItems: 1000 }) },
  { additionalProperties: false },
);
export type ReplaceGrantsInput = Static<typeof ReplaceGrantsBody>;

export const PackageCustomerSchema = Type.Object({
  customer_id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  status: Type.String(),
  constraint: Type.String(),
  granted_at: IsoDateTime,
  via_collection: Nullable(Type.String()),
});

export const CollectionGrantSchema = Type.Object({
  collection: Type.String(),
  name: Type.String(),
  constraint: Type.String(),
  granted_at: IsoDateTime,
});
export type CollectionGrantDto = Static<typeof CollectionGrantSchema>;

export const CollectionGrantBody = Type.Object(
  {
    collection: Type.String({ minLength: 1, maxLength: 100 }),
    constraint: Type.Optional(ConstraintString),
  },
  { additionalProperties: false },
);
export type CollectionGrantInput = Static<typeof CollectionGrantBody>;

export const CustomerPackageParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  vendor: Type.String({ minLength: 1, maxLength: 100 }),
  name: Type.String({ minLength: 1, maxLength: 100 }),
});

export const CustomerCollectionParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  slug: Type.String({ minLength: 1, maxLength: 100 }),
});
