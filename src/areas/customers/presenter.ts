import type { CustomerDto, CustomerStatus } from './schema.js';
import type { CustomerRow } from './store.js';

export function presentCustomer(row: CustomerRow): CustomerDto {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    external_id: row.external_id,
    status: row.status as CustomerStatus,
    status_reason: row.status_reason,
    access_expires_at: row.access_expires_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
