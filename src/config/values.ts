import { ConfigError } from './error.js';

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

export function integer(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) {
    throw new ConfigError(`${name} must be a whole number >= ${min}, got "${raw}"`);
  }
  return Number(raw);
}

export function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.join(' or ')}, got "${raw}"`);
  }
  return raw;
}

export function isoDate(env: Env, name: string): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  const shape = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;
  const time = Date.parse(raw);
  // A date-only value must name a real day (Date.parse rolls 2027-02-31 over into March).
  const rolledOver = (): boolean =>
    raw.length === 10 && new Date(time).toISOString().slice(0, 10) !== raw;
  if (!shape.test(raw) || Number.isNaN(time) || rolledOver()) {
    throw new ConfigError(`${name} must be an ISO 8601 date such as 2027-01-31, got "${raw}"`);
  }
  return new Date(time).toISOString();
}

export function port16(env: Env, name: string): number {
  const value = integer(env, name, 0);
  if (value > 65535) throw new ConfigError(`${name} must be at most 65535, got ${value}`);
  return value;
}

/** An http(s) base URL without its trailing slash. */
export function baseOf(env: Env, name: string, fallback: string): string {
  return (url(env, name, ['http:', 'https:']) ?? fallback).replace(/\/+$/, '');
}
