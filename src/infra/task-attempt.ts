import { AsyncLocalStorage } from 'node:async_hooks';

/** The attempt of a background task that the code running in this async context serves. */
export interface TaskAttempt {
  taskId: string;
  /** This attempt's number, the first being 1. */
  attempt: number;
  /** Attempts in all the task type allows. */
  maxAttempts: number;
}

const current = new AsyncLocalStorage<TaskAttempt>();

/** Runs `work` as `attempt` of a task (the worker wraps each handler in it). */
export function runAsAttempt<T>(attempt: TaskAttempt, work: () => Promise<T>): Promise<T> {
  return current.run(attempt, work);
}

/**
 * Whether the task machinery tries the work running here again when it fails now: true on a
 * task's attempt below its limit; false on its last attempt, and outside any task.
 */
export function failureWillBeRetried(): boolean {
  const attempt = current.getStore();
  return attempt !== undefined && attempt.attempt < attempt.maxAttempts;
}
