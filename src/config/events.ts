import type { Env } from './values.js';
import { integer } from './values.js';
import { ConfigError } from './error.js';

/** The event feed and outgoing webhooks (docs/webhooks-outgoing.md). */
export interface EventSettings {
  /** Events older than this are deleted by the daily cleanup (EVENT_RETENTION_DAYS, default 30). */
  eventRetentionDays: number;
  /**
   * The first retry of a failed delivery waits this long, each next one twice as long
   * (OUTGOING_WEBHOOK_RETRY_SECONDS, default 30; fractions allowed).
   */
  outgoingWebhookRetryMs: number;
  /** A receiver that has not answered by then failed (OUTGOING_WEBHOOK_TIMEOUT_SECONDS, 10). */
  outgoingWebhookTimeoutMs: number;
}

function seconds(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback * 1000;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > 86_400) {
    throw new ConfigError(`${name} must be a number of seconds above 0 (got "${raw}")`);
  }
  return Math.round(value * 1000);
}

export function eventSettings(env: Env): EventSettings {
  return {
    eventRetentionDays: integer(env, 'EVENT_RETENTION_DAYS', 30, 1),
    outgoingWebhookRetryMs: seconds(env, 'OUTGOING_WEBHOOK_RETRY_SECONDS', 30),
    outgoingWebhookTimeoutMs: seconds(env, 'OUTGOING_WEBHOOK_TIMEOUT_SECONDS', 10),
  };
}
