/**
 * Where a request's Host header points, for the Cloud edition (docs/cloud.md): a tenant's
 * label directly under BASE_DOMAIN, the base domain itself, or somewhere else.
 * - The port is ignored, and so are case and one trailing dot (`ACME.Example.com.:8080`).
 * - Several labels under the base domain (`a.b.example.com`) name no tenant: `unknown`.
 * - The base domain, an IP address, another domain, a missing or malformed Host: `none`.
 * Internationalised names arrive as punycode labels (`xn--…`) and are compared as such.
 */
export type HostTarget = { kind: 'tenant'; label: string } | { kind: 'unknown' } | { kind: 'none' };

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export function hostTarget(host: string | undefined, baseDomain: string): HostTarget {
  if (!host) return { kind: 'none' };
  let name = host.trim().toLowerCase();
  // An IPv6 literal ([::1]:8080) is never a tenant.
  if (name.startsWith('[')) return { kind: 'none' };
  name = name.replace(/:\d*$/, '').replace(/\.$/, '');
  const base = baseDomain.toLowerCase().replace(/\.$/, '');
  if (!name.endsWith(`.${base}`)) return { kind: 'none' };
  const sub = name.slice(0, -base.length - 1);
  if (sub.includes('.')) return { kind: 'unknown' };
  return LABEL.test(sub) ? { kind: 'tenant', label: sub } : { kind: 'unknown' };
}

/**
 * Subdomains no tenant may take: they are the service's own names (web site, API, admin UI,
 * mail and the like), so a vendor can never pose as the operator.
 */
export const RESERVED_SUBDOMAINS: ReadonlySet<string> = new Set([
  'www',
  'api',
  'admin',
  'app',
  'mail',
  'status',
  'static',
  'cdn',
  'docs',
  'platform',
]);
