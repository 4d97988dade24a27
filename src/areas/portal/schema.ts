import { Type } from 'typebox';
import type { Static } from 'typebox';
import { IsoDateTime, Nullable } from '../../http/schemas.js';

/** `GET /api/v1/me`: who the customer token is (docs/portal.md). */
export const MeSchema = Type.Object({
  customer: Type.Object({
    id: Type.String(),
    name: Type.String(),
    status: Type.String(),
    access_expires_at: Nullable(IsoDateTime),
  }),
  token: Type.Object({
    id: Type.String(),
    name: Type.String(),
    scope: Type.String(),
    expires_at: Nullable(IsoDateTime),
  }),
});
export type MeDto = Static<typeof MeSchema>;

/** One package of `GET /api/v1/me/packages`: the versions are those of the token's p2 documents. */
export const MyPackageSchema = Type.Object({
  name: Type.String(),
  description: Nullable(Type.String()),
  versions: Type.Array(Type.String()),
});
export type MyPackageDto = Static<typeof MyPackageSchema>;

/** `GET /api/v1/me/packages/{vendor}/{name}`: the versions with dates, and the readme. */
export const MyPackageDetailSchema = Type.Object({
  name: Type.String(),
  description: Nullable(Type.String()),
  versions: Type.Array(
    Type.Object({
      version: Type.String(),
      released_at: Nullable(Type.String()),
      kind: Type.Union([Type.Literal('tag'), Type.Literal('branch')]),
    }),
  ),
  readme: Nullable(
    Type.Object({
      format: Type.Literal('markdown'),
      content: Type.String(),
    }),
  ),
});
export type MyPackageDetailDto = Static<typeof MyPackageDetailSchema>;

/** `GET /api/v1/portal`: what the portal shows before anyone signs in (no credentials). */
export const PortalInfoSchema = Type.Object({
  title: Nullable(Type.String()),
  accent_color: Nullable(Type.String()),
  repository_url: Type.String(),
});
export type PortalInfoDto = Static<typeof PortalInfoSchema>;

/** `POST /api/v1/me/tokens`: only `download` and `developer` tokens are made in the portal. */
export const CreateMyTokenBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    scope: Type.Optional(Type.Union([Type.Literal('download'), Type.Literal('developer')])),
    expires_at: Type.Optional(Nullable(IsoDateTime)),
  },
  { additionalProperties: false },
);
export type CreateMyTokenInput = Static<typeof CreateMyTokenBody>;

export const MyTokenParams = Type.Object({
  token_id: Type.String({ minLength: 1, maxLength: 100 }),
});
