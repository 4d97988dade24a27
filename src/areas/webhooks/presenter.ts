import type { DeliveryRow } from './store.js';
import type { WebhookDeliveryDto } from './schema.js';

function names(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export function presentDelivery(row: DeliveryRow): WebhookDeliveryDto {
  return {
    id: row.id,
    provider: row.provider,
    event: row.event,
    delivery_id: row.delivery_id,
    status: row.status as WebhookDeliveryDto['status'],
    signature_ok: row.signature_ok === 1,
    packages: names(row.matched_packages),
    message: row.message,
    duration_ms: row.duration_ms,
    received_at: row.received_at,
  };
}
