/** Tables of the registry itself: tenants, customers, tokens, packages, access, tasks, stats. */
import type { Generated } from 'kysely';

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
  /** Where the zip starts inside the pack dist_key names; null: the object is the zip. */
  dist_offset: number | null;
  /** The README's blob id in the version's tree, '' for none, null when synced before it was kept. */
  readme_blob: string | null;
  created_at: string;
  updated_at: string;
}

/** Each distinct README blob of a package, once (versions.readme_blob points here). */
export interface PackageReadmesTable {
  tenant_id: string;
  package_id: string;
  blob_id: string;
  content: string;
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

/** A Cloud tenant's use passed 80 % or 100 % of a plan limit (once per metric, percent, month). */
export interface UsageNotificationsTable {
  id: string;
  tenant_id: string;
  type: string;
  metric: string;
  percent: number;
  period: string;
  value: number;
  limit_value: number;
  created_at: string;
}

export interface CacheGenerationsTable {
  tenant_id: string;
  generation: number;
  /** The access-change stamp (ms, whole seconds) Last-Modified derives from. */
  stamp_ms: Generated<number>;
  /** The highest package stamp: the tenant's stamp always moves past it. */
  floor_ms: Generated<number>;
  /** Moves with every per-package change; package_stamps.seq says which. */
  package_seq: Generated<number>;
}

/** A package whose p2 documents changed alone (an advisory), without the whole tenant's. */
export interface PackageStampsTable {
  tenant_id: string;
  name: string;
  generation: number;
  seq: number;
  stamp_ms: number;
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
