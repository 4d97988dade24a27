/** Tables of the proxy of a public Composer repository (areas/proxy). */

/** A p2 document of the upstream as kept (tenant_id: the cache tenant, see areas/proxy). */
export interface ProxyDocumentsTable {
  tenant_id: string;
  name: string;
  kind: string;
  status: string;
  /** JSON array of expanded version entries, as the upstream gave them. */
  entries: string;
  upstream_last_modified: string | null;
  checked_at: string;
  /** Last-Modified of what Packyard serves: moves forward whenever `entries` changes. */
  changed_at: string;
}

/** A version held in the kept metadata, with its archive once fetched. */
export interface ProxyVersionsTable {
  tenant_id: string;
  name: string;
  version: string;
  version_normalized: string;
  reference: string;
  dist_url: string;
  shasum: string | null;
  archive_key: string | null;
  archive_size: number | null;
  archived_at: string | null;
}

export interface ProxyFreezesTable {
  tenant_id: string;
  name: string;
  frozen_at: string;
}

export interface ProxyCountersTable {
  tenant_id: string;
  day: string;
  metric: string;
  value: number;
}

export interface ProxyDownloadsTable {
  tenant_id: string;
  customer_id: string;
  name: string;
  version_normalized: string;
  day: string;
  count: number;
  bytes: number;
}

export interface ProxyHealthTable {
  tenant_id: string;
  reachable: number;
  last_success_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
}

export interface ProxyAlertsTable {
  id: string;
  tenant_id: string;
  type: string;
  package: string | null;
  message: string;
  created_at: string;
}

/** A grant of a public package by name (PROXY_VISIBILITY=granted): public names have no packages row. */
export interface PublicGrantsTable {
  tenant_id: string;
  customer_id: string;
  name: string;
  constraint: string;
  granted_at: string;
}
