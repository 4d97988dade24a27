/** Tables of security advisories and vulnerability matches (areas/advisories). */

export interface AdvisoriesTable {
  id: string;
  tenant_id: string;
  /** PKYD-YYYY-NNNN, unique per tenant. */
  advisory_id: string;
  package_name: string;
  /** `vendor` (admin API) or `imported` (merged from the sources). */
  origin: string;
  remote_id: string;
  title: string;
  link: string | null;
  cve: string | null;
  /** JSON array of the vulnerability's ids (CVE, GHSA, OSV ids). */
  aliases: string;
  affected_versions: string;
  severity: string | null;
  description: string | null;
  reported_at: string;
  created_at: string;
  updated_at: string;
}

export interface AdvisorySourcesTable {
  tenant_id: string;
  source: string;
  remote_id: string;
  /** advisories.id of the advisory the record was merged into. */
  advisory_id: string;
  digest: string;
  record: string;
  imported_at: string;
}

export interface AdvisoryFingerprintsTable {
  tenant_id: string;
  source: string;
  fingerprint: string;
  imported_at: string;
}

export interface VulnerabilityMatchesTable {
  tenant_id: string;
  /** advisories.id */
  advisory_id: string;
  package_name: string;
  version_normalized: string;
  version: string;
  origin: string;
  detected_at: string;
}
