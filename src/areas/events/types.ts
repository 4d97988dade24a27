/**
 * The events of the outbox (docs/webhooks-outgoing.md): every change a vendor's systems may care
 * about, written in the transaction of the change. The list of types is in event-types.ts, which
 * the admin UI imports too.
 */
export { EVENT_TYPES } from './event-types.js';
export type { EventType } from './event-types.js';

/** `ping` is delivered to one endpoint on request and never written to the feed. */
export const PING_EVENT = 'ping';

/** An event as the feed and the webhooks show it. */
export interface EventDto {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

/** `evt_` and a 16-digit, zero-padded sequence: ids sort as text in creation order. */
export const EVENT_ID_RE = /^evt_\d{16}$/;

export function eventId(seq: number): string {
  return `evt_${String(seq).padStart(16, '0')}`;
}
