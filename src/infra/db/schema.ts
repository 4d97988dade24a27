/**
 * Table types. Timestamps are ISO 8601 strings and booleans are 0/1 integers in both dialects, so
 * SQLite and PostgreSQL behave the same. Every row carries tenant_id (single-tenant mode uses
 * DEFAULT_TENANT_ID).
 */
export interface Database {
  tenants: TenantsTable;
  settings: SettingsTable;
  team_tokens: TeamTokensTable;
  customers: CustomersTable;
  customer_tokens: CustomerTokensTable;
  frozen_versions: FrozenVersionsTable;
  packages: PackagesTable;
  versions: VersionsTable;
  package_metadata: PackageMetadataTable;
  grants: GrantsTable;
  collections: CollectionsTable;
  collection_packages: CollectionPackagesTable;
  collection_grants: CollectionGrantsTable;
  tasks: TasksTable;
  downloads: DownloadsTable;
  usage_counters: UsageCountersTable;
  cache_generations: CacheGenerationsTable;
  audit_log: AuditLogTable;
  monorepos: MonoreposTable;
  monorepo_children: MonorepoChildrenTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_delivery_packages: WebhookDeliveryPackagesTable;
  webhook_receipts: WebhookReceiptsTable;
  oauth_connections: OAuthConnectionsTable;
  oauth_states: OAuthStatesTable;
  hostapp_installations: HostAppInstallationsTable;
  proxy_documents: ProxyDocumentsTable;
  proxy_versions: ProxyVersionsTable;
  proxy_freezes: ProxyFreezesTable;
  proxy_counters: ProxyCountersTable;
  proxy_downloads: ProxyDownloadsTable;
  proxy_health: ProxyHealthTable;
  proxy_alerts: ProxyAlertsTable;
}

export const DEFAULT_TENANT_ID = 'default';

export interface TenantsTable {
  id: string;
  name: string;
  subdomain: string | null;
  plan: string;
  status: string;
  created_at: string;
  updated_at: string;
}

export interface SettingsTable {
  tenant_id: string;
  key: string;
  value: string;
}

export interface TeamTokensTable {
  id: string;
  tenant_id: string;
  name: string;
  level: string;
  token_digest: string;
  created_at: string;
  last_used_at: string | null;
}

export interface CustomersTable {
  id: string;
  tenant_id: string;
  name: string;
  email: string;
  external_id: string | null;
  status: string;
  status_reason: string | null;
  access_expires_at: string | null;
  /** `payment` when the payment webhook set the status; null when an admin or expiry did. */
  status_source: string | null;
  /** Creation time of the newest payment-provider event applied to or read for this customer. */
  payment_event_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface CustomerTokensTable {
  id: string;
  tenant_id: string;
  customer_id: string;
  name: string;
  scope: string;
  package_scopes: string;
  token_digest: string;
  expires_at: string | null;
  created_at: string;
  last_used_at: string | null;
}

export interface FrozenVersionsTable {
  tenant_id: string;
  customer_id: string;
  package_id: string;
  version_normalized: string;
}

export interface PackagesTable {
  id: string;
  tenant_id: string;
  name: string;
  description: string | null;
  repository_url: string;
  /** repositoryKey(repository_url): what push webhooks look packages up by. */
  repository_key: string;
  type: string;
  latest_version: string | null;
  default_branch: string | null;
  readme: string | null;
  synced_at: string | null;
  sync_status: string;
  sync_error: string | null;
  sync_skipped: string;
  abandoned: number;
  created_at: string;
  updated_at: string;
}

export interface VersionsTable {
  id: string;
  tenant_id: string;
  package_id: string;
  version: string;
  version_normalized: string;
  is_dev: number;
  reference: string;
  released_at: string | null;
  metadata: string;
  yanked: number;
  deprecated: number;
  dist_key: string;
  dist_shasum: string;
  dist_size: number;
  created_at: string;
  updated_at: string;
}

export interface PackageMetadataTable {
  tenant_id: string;
  package_id: string;
  kind: string;
  entries: string;
  last_modified: string;
}

export interface GrantsTable {
  tenant_id: string;
  customer_id: string;
  package_id: string;
  constraint: string;
  granted_at: string;
}

export interface CollectionsTable {
  id: string;
  tenant_id: string;
  slug: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface CollectionPackagesTable {
  tenant_id: string;
  collection_id: string;
  package_id: string;
  added_at: string;
}

export interface CollectionGrantsTable {
  tenant_id: string;
  customer_id: string;
  collection_id: string;
  constraint: string;
  granted_at: string;
}

export interface TasksTable {
  id: string;
  tenant_id: string;
  type: string;
  payload: string;
  status: string;
  attempts: number;
  error: string | null;
  result: string | null;
  dedupe_key: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  locked_by: string | null;
  lease_expires_at: string | null;
  run_after: string;
}

export interface DownloadsTable {
  tenant_id: string;
  customer_id: string;
  package_id: string;
  version_normalized: string;
  day: string;
  count: number;
  bytes: number;
}

export interface UsageCountersTable {
  tenant_id: string;
  metric: string;
  period: string;
  value: number;
}

export interface CacheGenerationsTable {
  tenant_id: string;
  generation: number;
}

export interface AuditLogTable {
  id: string;
  tenant_id: string;
  actor_kind: string;
  actor_id: string | null;
  action: string;
  target_type: string;
  target_id: string;
  summary: string;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
}

/** A package whose repository holds child packages in folders matching `paths` (JSON array). */
export interface MonoreposTable {
  package_id: string;
  tenant_id: string;
  paths: string;
}

/** A child package of a monorepo, found by the parent's sync in folder `path`. */
export interface MonorepoChildrenTable {
  package_id: string;
  tenant_id: string;
  parent_id: string;
  path: string;
}

/** One inbound webhook request, accepted or not. matched_packages: JSON array of package names. */
export interface WebhookDeliveriesTable {
  id: string;
  tenant_id: string;
  /** github | gitlab | bitbucket | hostapp | payment */
  provider: string;
  event: string;
  delivery_id: string | null;
  signature_ok: number;
  /** queued | processed | ignored | duplicate | rejected | failed */
  status: string;
  message: string | null;
  matched_packages: string;
  duration_ms: number;
  received_at: string;
}

/** Which packages a delivery matched, so deliveries can be listed per package. */
export interface WebhookDeliveryPackagesTable {
  delivery_id: string;
  tenant_id: string;
  package_id: string;
}

/** Delivery ids already processed per provider (GitHub delivery, GitLab event UUID, Stripe event id). */
export interface WebhookReceiptsTable {
  tenant_id: string;
  provider: string;
  delivery_id: string;
  received_at: string;
}

/** A registry's OAuth connection to a git host; tokens encrypted with ENCRYPTION_KEY. */
export interface OAuthConnectionsTable {
  id: string;
  tenant_id: string;
  /** github | gitlab */
  provider: string;
  account_login: string | null;
  account_id: string | null;
  access_token_enc: string;
  refresh_token_enc: string | null;
  expires_at: string | null;
  /** JSON array */
  scopes: string;
  created_at: string;
  updated_at: string;
}

export interface OAuthStatesTable {
  state: string;
  tenant_id: string;
  provider: string;
  code_verifier: string | null;
  created_at: string;
  expires_at: string;
}

/** A GitHub App installation; tenant_id null until claimed. repositories: JSON array of full names. */
export interface HostAppInstallationsTable {
  id: string;
  tenant_id: string | null;
  host_installation_id: string;
  account_login: string;
  account_type: string;
  repository_selection: string;
  /** active | suspended | deleted */
  status: string;
  repositories: string;
  created_at: string;
  updated_at: string;
  claimed_at: string | null;
}

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
