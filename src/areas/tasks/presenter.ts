import type { TaskDto, TaskStatus } from './schema.js';
import type { TaskRow } from './store.js';

export function presentTask(row: TaskRow): TaskDto {
  return {
    id: row.id,
    type: row.type,
    status: row.status as TaskStatus,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    attempts: row.attempts,
    error: row.error,
    result: row.result === null ? null : (JSON.parse(row.result) as unknown),
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
  };
}
