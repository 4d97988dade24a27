import crypto from 'node:crypto';
import type { Db } from '../../infra/db/connection.js';
import type { CustomerPrincipal } from '../auth/service.js';
import { customerPackageAccess, frozenVersions } from '../../composer/visibility.js';
import type { PackageAccess } from '../../composer/visibility.js';
import { listPublicGrants } from '../access/public-grants.js';

/**
 * Everything a token's Composer answers depend on, as one digest: the packages its customer may
 * see with their grant constraints, the frozen versions of a frozen customer, the token's
 * package scopes and, under PROXY_VISIBILITY=granted, the public grants. Tokens with the same
 * fingerprint in one tenant see exactly the same documents (ResponseCache shares them).
 * Nothing of the customer's identity goes in: two customers sold the same plan share.
 */
export async function audienceFingerprint(
  db: Db,
  principal: CustomerPrincipal,
  publicGrants: boolean,
  /** Package id -> grant constraints of the customer, when already read (tokenAccessConstraints). */
  known?: ReadonlyMap<string, readonly string[]>,
): Promise<string> {
  const { customer } = principal;
  const tenantId = customer.tenant_id;
  const access = known ?? constraintsOf(await customerPackageAccess(db, tenantId, customer.id));
  const frozen =
    customer.status === 'FROZEN' ? await frozenVersions(db, tenantId, customer.id) : null;
  const lines: string[] = [];
  for (const [packageId, constraints] of access) {
    const versions = frozen ? [...(frozen.get(packageId) ?? [])].sort().join(',') : '';
    lines.push(`${packageId}\t${[...constraints].sort().join('\t')}\t${versions}`);
  }
  lines.sort();
  lines.push(`frozen:${frozen ? 1 : 0}`, `scopes:${[...principal.packageScopes].sort().join(',')}`);
  if (publicGrants) {
    const granted = await listPublicGrants(db, tenantId, customer.id);
    for (const g of granted) lines.push(`public:${g.package}\t${g.constraint}`);
  }
  return crypto.createHash('sha256').update(lines.join('\n')).digest('base64url');
}

const constraintsOf = (access: Map<string, PackageAccess>) =>
  new Map([...access.values()].map((a) => [a.packageId, a.constraints]));
