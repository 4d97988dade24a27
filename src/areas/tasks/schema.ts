import { Type } from 'typebox';
import type { Static } from 'typebox';
import { IsoDateTime, Nullable } from '../../http/schemas.js';

export const TaskSchema = Type.Object(
  {
    id: Type.String(),
    type: Type.String(),
    status: Type.Union([
      Type.Literal('pending'),
      Type.Literal('running'),
      Type.Literal('done'),
      Type.Literal('failed'),
    ]),
    payload: Type.Record(Type.String(), Type.Unknown()),
    attempts: Type.Integer(),
    error: Nullable(Type.String()),
    result: Nullable(Type.Unknown()),
    created_at: IsoDateTime,
    started_at: Nullable(IsoDateTime),
    finished_at: Nullable(IsoDateTime),
  },
  { $id: 'Task' },
);
export type TaskDto = Static<typeof TaskSchema>;
export type TaskStatus = TaskDto['status'];
