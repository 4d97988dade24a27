import type { AdvisorySeverity, ImportedAdvisory } from './sources/types.js';

/** Keys records about the same vulnerability share: `<package>\n<ID>` for each CVE/GHSA/alias. */
export function mergeKeys(packageName: string, ids: readonly (string | null)[]): string[] {
  const out = new Set<string>();
  for (const id of ids) {
    const clean = id?.trim().toUpperCase();
    if (clean) out.add(`${packageName}\n${clean}`);
  }
  return [...out];
}

/** Which source's fields win when several describe one advisory (others fill what it lacks). */
const PRIORITY = ['github', 'osv', 'friendsofphp'];
const SEVERITIES: readonly AdvisorySeverity[] = ['low', 'medium', 'high', 'critical'];

export interface MergedAdvisory {
  package_name: string;
  remote_id: string;
  title: string;
  link: string | null;
  cve: string | null;
  aliases: string;
  affected_versions: string;
  severity: string | null;
  description: string | null;
  reported_at: string;
}

/**
 * One advisory from every source record about it: fields of the highest-priority source that
 * has them; affected versions are the union of every source's constraint (a version any source
 * calls affected is affected); reported at the earliest date; every id as an alias.
 */
export function mergeRecords(records: readonly ImportedAdvisory[]): MergedAdvisory {
  const sorted = [...records].sort(
    (a, b) => rank(a.source) - rank(b.source) || a.remoteId.localeCompare(b.remoteId),
  );
  const first = sorted[0];
  if (!first) throw new Error('mergeRecords: no records');
  const pick = <K extends keyof ImportedAdvisory>(key: K): ImportedAdvisory[K] | null =>
    sorted.map((r) => r[key]).find((v) => v !== null && v !== undefined && v !== '') ?? null;
  const constraints = [...new Set(sorted.map((r) => r.affectedVersions.trim()))];
  const aliases = new Set<string>();
  for (const r of sorted) {
    if (r.cve) aliases.add(r.cve.toUpperCase());
    if (!r.remoteId.includes('/')) aliases.add(r.remoteId.toUpperCase());
    for (const a of r.aliases) aliases.add(a.toUpperCase());
  }
  const severity = pick('severity');
  const reported = sorted.map((r) => new Date(r.reportedAt).getTime()).sort((a, b) => a - b)[0]!;
  return {
    package_name: first.packageName,
    remote_id: first.remoteId,
    title: first.title,
    link: pick('link'),
    cve: pick('cve'),
    aliases: JSON.stringify([...aliases].sort()),
    affected_versions: constraints.join('|'),
    severity: severity && SEVERITIES.includes(severity) ? severity : null,
    description: pick('description'),
    reported_at: new Date(reported).toISOString(),
  };
}

function rank(source: string): number {
  const i = PRIORITY.indexOf(source);
  return i === -1 ? PRIORITY.length : i;
}
