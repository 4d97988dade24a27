import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The abort signal of the background task running in this async context, so code deep below a
 * task handler (every git process a sync starts) stops with it without each call passing the
 * signal down by hand. Outside a task there is none.
 */
const current = new AsyncLocalStorage<AbortSignal>();

/** Runs `work` with `signal` as the current abort signal of everything it starts. */
export function runWithSignal<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  return current.run(signal, work);
}

/** The abort signal of the task this code runs for, if any. */
export function currentSignal(): AbortSignal | undefined {
  return current.getStore();
}
