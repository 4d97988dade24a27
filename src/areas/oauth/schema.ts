import { Type } from 'typebox';
import type { Static } from 'typebox';
import { IsoDateTime, ListOf, Nullable } from '../../http/schemas.js';

/** `github`, `gitlab`, or their aliases `provider-a`, `provider-b` (resolved by the routes). */
export const ProviderParams = Type.Object({
  provider: Type.String({ minLength: 1, maxLength: 32 }),
});

/** initiate takes no options; unknown fields are refused like everywhere else. */
export const InitiateBody = Type.Object({}, { additionalProperties: false });

export const InitiateSchema = Type.Object({
  provider: Type.String(),
  authorization_url: Type.String(),
  state: Type.String(),
  expires_at: IsoDateTime,
});
export type InitiateDto = Static<typeof InitiateSchema>;

/** What the git host appends to the redirect URI (other parameters are ignored). */
export const CallbackQuery = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 2048 })),
  state: Type.Optional(Type.String({ maxLength: 512 })),
  error: Type.Optional(Type.String({ maxLength: 256 })),
  error_description: Type.Optional(Type.String({ maxLength: 2048 })),
});
export type CallbackInput = Static<typeof CallbackQuery>;

export const StatusSchema = Type.Object({
  provider: Type.String(),
  configured: Type.Boolean(),
  connected: Type.Boolean(),
  account_login: Nullable(Type.String()),
  scopes: Type.Array(Type.String()),
  expires_at: Nullable(IsoDateTime),
  connected_at: Nullable(IsoDateTime),
});
export type StatusDto = Static<typeof StatusSchema>;

export const ConnectionSchema = Type.Object({
  id: Type.String(),
  provider: Type.String(),
  account_login: Nullable(Type.String()),
  scopes: Type.Array(Type.String()),
  expires_at: Nullable(IsoDateTime),
  created_at: IsoDateTime,
  updated_at: IsoDateTime,
});
export type ConnectionDto = Static<typeof ConnectionSchema>;

export const ConnectionListSchema = ListOf(ConnectionSchema);
