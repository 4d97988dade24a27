/** Tables of the outside world's ways in: webhooks, OAuth connections, the GitHub App. */

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
  /** Digest of the initiating browser's cookie value; null for states made before it existed. */
  browser_digest: string | null;
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
