import type { ProxyAlertsTable } from '../../infra/db/schema.js';

export function presentAlert(row: ProxyAlertsTable) {
  return {
    id: row.id,
    type: row.type as 'upstream_unreachable' | 'upstream_recovered' | 'advisory',
    package: row.package,
    message: row.message,
    created_at: row.created_at,
  };
}
