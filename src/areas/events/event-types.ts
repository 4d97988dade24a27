/**
 * The event types of the outbox (docs/webhooks-outgoing.md), in the contract's order. The one
 * list of them: the server's checks and schemas and the admin UI's event picker both read it, so
 * this module imports nothing and holds nothing else (the UI's build bundles it as it is).
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
