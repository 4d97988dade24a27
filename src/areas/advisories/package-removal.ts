import type { Db } from '../../infra/db/connection.js';
import { forTenant } from '../../infra/db/tenant-scope.js';

/**
 * A deleted private package takes its vendor advisories and the matches of its versions with it
 * (imported advisories stay: they are about the public package of that name). Run it in the
 * package deletion's unit of work.
 */
export async function forgetPrivatePackages(db: Db, tenantId: string, names: readonly string[]) {
  if (names.length === 0) return;
  const bound = forTenant(db, tenantId);
  const vendor = bound
    .selectFrom('advisories')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('origin', '=', 'vendor')
    .where('package_name', 'in', names);
  await bound
    .deleteFrom('vulnerability_matches')
    .where('tenant_id', '=', tenantId)
    .where((eb) =>
      eb.or([
        eb('advisory_id', 'in', vendor),
        eb.and([eb('package_name', 'in', names), eb('origin', '=', 'private')]),
      ]),
    )
    .execute();
  await bound
    .deleteFrom('advisories')
    .where('tenant_id', '=', tenantId)
    .where('origin', '=', 'vendor')
    .where('package_name', 'in', names)
    .execute();
}
