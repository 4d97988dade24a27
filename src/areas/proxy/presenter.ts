import type { ProxyAlertsTable } from '../../infra/db/schema.js';
import type { ProxyStatusView } from './admin.js';

export function presentAlert(row: ProxyAlertsTable) {
  return {
    id: row.id,
    type: row.type as 'upstream_unreachable' | 'upstream_recovered' | 'advisory',
    package: row.package,
    message: row.message,
    created_at: row.created_at,
  };
}

/** GraphQL's ProxyStatus (decisions.md 12); `upstreams` stays for clients of the earlier shape. */
export function presentStatusGraphql(s: ProxyStatusView) {
  return {
    enabled: s.enabled,
    upstreamUrl: s.upstream_url,
    upstreams: s.upstream_url ? [s.upstream_url] : [],
    upstreamReachable: s.upstream_reachable,
    cachedPackages: s.cached_packages,
    cachedArchives: s.cached_archives,
    cachedBytes: s.cached_bytes,
    frozenPackages: s.frozen_packages,
  };
}
