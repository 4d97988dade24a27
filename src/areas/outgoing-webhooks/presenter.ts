import type { DeliveryDto, EndpointDto } from './schema.js';
import type { DeliveryRow, EndpointRow } from './store.js';

export function presentEndpoint(row: EndpointRow): EndpointDto {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    description: row.description,
    active: row.active === 1,
    created_at: row.created_at,
    secret_set: true,
  };
}

export function presentDelivery(row: DeliveryRow): DeliveryDto {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status as DeliveryDto['status'],
    attempts: row.attempts,
    response_status: row.response_status,
    response_body: row.response_body,
    error: row.error,
    duration_ms: row.duration_ms,
    created_at: row.created_at,
    // Only a pending delivery has a next attempt.
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at : null,
  };
}
