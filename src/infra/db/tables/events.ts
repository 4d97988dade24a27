/** The event outbox and outgoing webhooks (docs/webhooks-outgoing.md). */

/** Each tenant's last event sequence number (event ids are `evt_` + it, zero-padded). */
export interface EventCountersTable {
  tenant_id: string;
  seq: number;
}

/** One change a unit of work committed; `data` is the event's JSON `data`. */
export interface EventsTable {
  tenant_id: string;
  id: string;
  type: string;
  /** The package the event is about, when it is about one (deliveries keep its order). */
  package: string | null;
  data: string;
  created_at: string;
}

/** Where a tenant's events are POSTed. `events`: JSON array of types. */
export interface WebhookEndpointsTable {
  tenant_id: string;
  id: string;
  url: string;
  events: string;
  description: string | null;
  active: number;
  /** The signing secret, sealed with the settings box. */
  secret_enc: string;
  created_at: string;
  updated_at: string;
}

/** One event to one endpoint: pending, succeeded or failed. `payload` is the event's JSON. */
export interface WebhookEventDeliveriesTable {
  tenant_id: string;
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  chain: string;
  payload: string;
  status: string;
  attempts: number;
  max_attempts: number;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number | null;
  created_at: string;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
}
