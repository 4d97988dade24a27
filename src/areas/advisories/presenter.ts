import type { AdvisoryDto, VulnerabilityDto } from './schema.js';
import type { AdvisoryRow } from './store.js';
import type { VulnerabilityView } from './vulnerabilities.js';

type Severity = AdvisoryDto['severity'];

export function presentAdvisory(row: AdvisoryRow): AdvisoryDto {
  return {
    id: row.id,
    advisory_id: row.advisory_id,
    package: row.package_name,
    title: row.title,
    severity: row.severity as Severity,
    affected_versions: row.affected_versions,
    description: row.description,
    cve: row.cve,
    link: row.link,
    reported_at: row.reported_at,
    source: row.origin === 'vendor' ? 'vendor' : 'imported',
  };
}

export function presentVulnerability(view: VulnerabilityView): VulnerabilityDto {
  const { advisory: a, matches } = view;
  return {
    id: a.id,
    advisory_id: a.advisory_id,
    package: a.package_name,
    title: a.title,
    severity: a.severity as Severity,
    cve: a.cve,
    link: a.link,
    description: a.description,
    affected_versions: a.affected_versions,
    patched_versions: view.patched,
    affected_registry_versions: matches.map((m) => m.version),
    sources: view.sources,
    reported_at: a.reported_at,
    detected_at: matches.map((m) => m.detected_at).sort()[0] ?? a.created_at,
    affected_customer_count: view.customers.length,
  };
}

export function presentVulnerabilityDetail(view: VulnerabilityView) {
  return { ...presentVulnerability(view), affected_customers: view.customers };
}
