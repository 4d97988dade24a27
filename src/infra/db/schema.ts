import type {
  TenantsTable,
  SettingsTable,
  TeamTokensTable,
  CustomersTable,
  CustomerTokensTable,
  FrozenVersionsTable,
  PackagesTable,
  VersionsTable,
  PackageMetadataTable,
  PackageReadmesTable,
  GrantsTable,
  CollectionsTable,
  CollectionPackagesTable,
  CollectionGrantsTable,
  TasksTable,
  DownloadsTable,
  UsageCountersTable,
  UsageNotificationsTable,
  CacheGenerationsTable,
  PackageStampsTable,
  AuditLogTable,
  MonoreposTable,
  MonorepoChildrenTable,
} from './tables/registry.js';
import type {
  WebhookDeliveriesTable,
  WebhookDeliveryPackagesTable,
  WebhookReceiptsTable,
  OAuthConnectionsTable,
  OAuthStatesTable,
  HostAppInstallationsTable,
} from './tables/integrations.js';
import type {
  ProxyDocumentsTable,
  ProxyVersionsTable,
  ProxyFreezesTable,
  ProxyCountersTable,
  ProxyDownloadsTable,
  ProxyHealthTable,
  ProxyAlertsTable,
  PublicGrantsTable,
} from './tables/proxy.js';
import type {
  AdvisoriesTable,
  AdvisorySourcesTable,
  AdvisoryFingerprintsTable,
  VulnerabilityMatchesTable,
} from './tables/advisories.js';
import type {
  EventCountersTable,
  EventsTable,
  WebhookEndpointsTable,
  WebhookEventDeliveriesTable,
} from './tables/events.js';

export type * from './tables/registry.js';
export type * from './tables/integrations.js';
export type * from './tables/proxy.js';
export type * from './tables/advisories.js';
export type * from './tables/events.js';

/**
 * Table types. Timestamps are ISO 8601 strings and booleans are 0/1 integers in both dialects, so
 * SQLite and PostgreSQL behave the same. Every row carries tenant_id (single-tenant mode uses
 * DEFAULT_TENANT_ID). A new table: its row type in tables/<group>.ts, its entry here.
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
  package_readmes: PackageReadmesTable;
  grants: GrantsTable;
  collections: CollectionsTable;
  collection_packages: CollectionPackagesTable;
  collection_grants: CollectionGrantsTable;
  tasks: TasksTable;
  downloads: DownloadsTable;
  usage_counters: UsageCountersTable;
  usage_notifications: UsageNotificationsTable;
  cache_generations: CacheGenerationsTable;
  package_stamps: PackageStampsTable;
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
  public_grants: PublicGrantsTable;
  proxy_health: ProxyHealthTable;
  proxy_alerts: ProxyAlertsTable;
  advisories: AdvisoriesTable;
  advisory_sources: AdvisorySourcesTable;
  advisory_fingerprints: AdvisoryFingerprintsTable;
  vulnerability_matches: VulnerabilityMatchesTable;
  event_counters: EventCountersTable;
  events: EventsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_event_deliveries: WebhookEventDeliveriesTable;
}

export const DEFAULT_TENANT_ID = 'default';
