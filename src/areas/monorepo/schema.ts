import { Type } from 'typebox';
import type { Static } from 'typebox';
import { IsoDateTime, Nullable } from '../../http/schemas.js';

export const MonorepoSchema = Type.Object({
  paths: Type.Array(Type.String()),
  children: Type.Array(Type.String()),
  synced_at: Nullable(IsoDateTime),
});
export type MonorepoDto = Static<typeof MonorepoSchema>;
