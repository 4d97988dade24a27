import type { TaskDto, TaskStatus } from './schema.js';
import type { TaskRow } from './store.js';

/** Attempts a task type gets when its handler declares no limit. */
export const DEFAULT_MAX_ATTEMPTS = 3;

export function presentTask(row: TaskRow, maxAttempts = DEFAULT_MAX_ATTEMPTS): TaskDto {
  return {
    id: row.id,
    type: row.type,
    status: row.status as TaskStatus,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    attempts: row.attempts,
    max_attempts: maxAttempts,
    error: row.error,
    result: row.result === null ? null : (JSON.parse(row.result) as unknown),
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
    run_after: row.run_after,
  };
}
