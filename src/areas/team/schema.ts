import { Type } from 'typebox';
import type { Static } from 'typebox';
import { IsoDateTime, Nullable } from '../../http/schemas.js';

const Level = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('viewer')]);

export const TeamTokenSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  level: Level,
  created_at: IsoDateTime,
  last_used_at: Nullable(IsoDateTime),
});
export type TeamTokenDto = Static<typeof TeamTokenSchema>;

export const IssuedTeamTokenSchema = Type.Object({
  token: TeamTokenSchema,
  plain_token: Type.String(),
});

export const CreateTeamTokenBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 255 }), level: Level },
  { additionalProperties: false },
);
export type CreateTeamTokenInput = Static<typeof CreateTeamTokenBody>;
