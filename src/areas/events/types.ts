/**
 * The events of the outbox (docs/webhooks-outgoing.md): every change a vendor's systems may care
 * about, written in the transaction of the change. `data` of each type, in the contract's words.
 */
export const EVENT_TYPES = [
  'package.created',
  'package.deleted',
  'package.synced',
  'version.published',
  'version.yanked',
  'version.unyanked',
  'version.deprecated',
  'customer.created',
  'customer.deleted',
  'customer.status_changed',
  'token.created',
  'token.revoked',
  'access.granted',
  'access.revoked',
  'vulnerability.detected',
  'usage.warning',
  'usage.limit_reached',
  'proxy.upstream_unreachable',
  'proxy.upstream_recovered',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

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
