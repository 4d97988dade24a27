import { ConfigError } from './config-error.js';

/** The environment as config.ts receives it (process.env, or a test's object). */
export type Env = Record<string, string | undefined>;

/** An on/off setting: on, true, 1, yes / off, false, 0, no. */
export function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['on', 'true', '1', 'yes'].includes(raw)) return true;
  if (['off', 'false', '0', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name} must be on or off, got "${env[name]}"`);
}
