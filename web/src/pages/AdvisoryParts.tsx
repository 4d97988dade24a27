import type { Severity, Vulnerability } from '../api/types';

export const SEVERITIES: Severity[] = ['critical', 'high', 'medium', 'low'];

/** The CVE, linked to the advisory's page when it has one. */
export function CveLink({ v }: { v: Pick<Vulnerability, 'cve' | 'link'> }) {
  const text = v.cve ?? (v.link ? 'Advisory' : '—');
  if (!v.link) return <>{text}</>;
  return (
    <a href={v.link} target="_blank" rel="noopener noreferrer nofollow">
      {text}
    </a>
  );
}
