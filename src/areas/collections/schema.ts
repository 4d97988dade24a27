import { Type } from 'typebox';
import type { Static } from 'typebox';
import { IsoDateTime } from '../../http/schemas.js';

const Name = Type.String({ minLength: 1, maxLength: 255 });
const Slug = Type.String({ pattern: '^[a-z0-9-]{1,100}$' });
const PackageNames = Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 1000 });

export const CollectionSchema = Type.Object({
  slug: Type.String(),
  name: Type.String(),
  packages: Type.Array(Type.String()),
  created_at: IsoDateTime,
  updated_at: IsoDateTime,
});
export type CollectionDto = Static<typeof CollectionSchema>;

export const CreateCollectionBody = Type.Object(
  { name: Name, slug: Slug, packages: Type.Optional(PackageNames) },
  { additionalProperties: false },
);
export type CreateCollectionInput = Static<typeof CreateCollectionBody>;

export const UpdateCollectionBody = Type.Object(
  {
    name: Type.Optional(Name),
    packages: Type.Optional(PackageNames),
    add_packages: Type.Optional(PackageNames),
    remove_packages: Type.Optional(PackageNames),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateCollectionInput = Static<typeof UpdateCollectionBody>;

export const SlugParams = Type.Object({ slug: Type.String({ minLength: 1, maxLength: 100 }) });
