import { Type } from 'typebox';
import type { Static } from 'typebox';
import { IsoDateTime, Nullable } from '../../http/schemas.js';

export const TOKEN_SCOPES = ['admin', 'developer', 'download', 'webhook'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];
const Scope = Type.Union([
  Type.Literal('admin'),
  Type.Literal('developer'),
  Type.Literal('download'),
  Type.Literal('webhook'),
]);

export const TokenSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  scope: Scope,
  package_scopes: Type.Array(Type.String()),
  expires_at: Nullable(IsoDateTime),
  created_at: IsoDateTime,
  last_used_at: Nullable(IsoDateTime),
});
export type TokenDto = Static<typeof TokenSchema>;

/** Create, rotate and regenerate answers: the only time the plain value is ever shown. */
export const IssuedTokenSchema = Type.Object({
  token: TokenSchema,
  plain_token: Type.String(),
  composer_auth: Type.Object({
    username: Type.String(),
    password: Type.String(),
    repository_url: Type.String(),
  }),
});
export type IssuedTokenDto = Static<typeof IssuedTokenSchema>;

export const CreateTokenBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    scope: Type.Optional(Scope),
    package_scopes: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 100 }),
    ),
    expires_at: Type.Optional(Nullable(IsoDateTime)),
  },
  { additionalProperties: false },
);
export type CreateTokenInput = Static<typeof CreateTokenBody>;

export const JwtBody = Type.Object(
  {
    expires_in: Type.Optional(Type.Integer({ minimum: 60, maximum: 2_592_000 })),
    scope: Type.Optional(
      Type.Union([Type.Literal('download'), Type.Literal('developer'), Type.Literal('admin')]),
    ),
  },
  { additionalProperties: false },
);
export type JwtInput = Static<typeof JwtBody>;

export const JwtSchema = Type.Object({
  token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_at: IsoDateTime,
});

export const TokenParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  token_id: Type.String({ minLength: 1, maxLength: 100 }),
});
