import { Type } from 'typebox';
import type { Static } from 'typebox';
import { IsoDateTime, Nullable, PageNumber } from '../../http/schemas.js';

/** Syncs one package (payload `package_id`). */
export const SYNC_TASK = 'package.sync';
/** Task types a caller may queue through `POST /api/v1/tasks`. */
export const SYNC_ALL_TASK = 'packages.sync_all';
export const CLEANUP_TASK = 'cleanup';
/** Imports every advisory source and matches (areas/advisories). */
export const ADVISORIES_IMPORT_TASK = 'advisories.import';
export const PUBLIC_TASK_TYPES = [SYNC_TASK, SYNC_ALL_TASK, CLEANUP_TASK] as const;

const Status = Type.Union([
  Type.Literal('pending'),
  Type.Literal('running'),
  Type.Literal('done'),
  Type.Literal('failed'),
]);

export const TaskSchema = Type.Object(
  {
    id: Type.String(),
    type: Type.String(),
    status: Status,
    payload: Type.Record(Type.String(), Type.Unknown()),
    attempts: Type.Integer(),
    max_attempts: Type.Integer(),
    error: Nullable(Type.String()),
    result: Nullable(Type.Unknown()),
    created_at: IsoDateTime,
    started_at: Nullable(IsoDateTime),
    finished_at: Nullable(IsoDateTime),
    run_after: IsoDateTime,
  },
  { $id: 'Task' },
);
export type TaskDto = Static<typeof TaskSchema>;
export type TaskStatus = TaskDto['status'];

export const CreateTaskBody = Type.Object(
  {
    type: Type.Union(PUBLIC_TASK_TYPES.map((t) => Type.Literal(t))),
    payload: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
);
export type CreateTaskInput = Static<typeof CreateTaskBody>;

export const TaskListQuery = Type.Object(
  {
    status: Type.Optional(Status),
    type: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    page: Type.Optional(PageNumber),
    per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  { additionalProperties: false },
);
export type TaskListInput = Static<typeof TaskListQuery>;
