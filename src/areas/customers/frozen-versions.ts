import { normalizeVersion } from '../../composer/semver/index.js';
import { customerVisibility } from '../../composer/visibility.js';
import { invalid } from '../../errors.js';
import type { Db } from '../../infra/db/connection.js';
import type { FreezeInput } from './schema.js';

/** Rows per INSERT (and ids per IN list), well under SQLite's and PostgreSQL's parameter limits. */
export const INSERT_CHUNK = 500;
/** How many frozen versions an audit summary of a freeze without a list names. */
export const FREEZE_SUMMARY_MAX = 1000;

/**
 * Every version a (not frozen) customer sees now: of each package granted directly or through
 * a collection, the versions some grant constraint matches, yanked ones excluded, as the
 * Composer metadata shows them.
 */
export async function visibleVersions(db: Db, tenantId: string, customerId: string) {
  // A customer about to be frozen is not FROZEN yet: the grants alone decide.
  const customer = { id: customerId, status: 'ACTIVE' };
  const access = [...(await customerVisibility(db, tenantId, customer)).values()];
  const out: { packageId: string; normalized: string; name: string; version: string }[] = [];
  for (let i = 0; i < access.length; i += INSERT_CHUNK) {
    const chunk = access.slice(i, i + INSERT_CHUNK);
    const versions = await db
      .selectFrom('versions')
      .select(['package_id', 'version', 'version_normalized'])
      .where('tenant_id', '=', tenantId)
      .where(
        'package_id',
        'in',
        chunk.map((a) => a.packageId),
      )
      .where('yanked', '=', 0)
      // Branches move: a frozen dev-main would serve each new commit. Tags only.
      .where('is_dev', '=', 0)
      .execute();
    const byId = new Map(chunk.map((a) => [a.packageId, a]));
    for (const v of versions) {
      const grant = byId.get(v.package_id);
      if (!grant?.gate.admits(v.version_normalized)) continue;
      out.push({
        packageId: v.package_id,
        normalized: v.version_normalized,
        name: grant.name,
        version: v.version,
      });
    }
  }
  return out.sort(
    (a, b) => a.name.localeCompare(b.name) || a.normalized.localeCompare(b.normalized),
  );
}

/** The listed package/version pairs as stored rows; 400 naming the first that does not exist. */
export async function resolveFrozenVersions(
  db: Db,
  tenantId: string,
  versions: NonNullable<FreezeInput['versions']>,
) {
  const out = new Map<string, { packageId: string; normalized: string }>();
  for (const [i, item] of versions.entries()) {
    const field = `versions.${i}`;
    const pkg = await db
      .selectFrom('packages')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('name', '=', item.package.toLowerCase())
      .executeTakeFirst();
    if (!pkg) throw invalid(`${field}.package`, `package ${item.package} does not exist`);
    let normalized: string;
    try {
      normalized = normalizeVersion(item.version);
    } catch (err) {
      throw invalid(`${field}.version`, (err as Error).message);
    }
    const version = await db
      .selectFrom('versions')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('package_id', '=', pkg.id)
      .where('version_normalized', '=', normalized)
      .executeTakeFirst();
    if (!version) {
      throw invalid(`${field}.version`, `${item.package} has no version ${item.version}`);
    }
    out.set(`${pkg.id}@${normalized}`, { packageId: pkg.id, normalized });
  }
  return [...out.values()];
}

/** A customer's frozen versions, as package name and pretty version. */
export async function listFrozenVersions(
  db: Db,
  tenantId: string,
  customerId: string,
): Promise<{ package: string; version: string }[]> {
  const rows = await db
    .selectFrom('frozen_versions as f')
    .innerJoin('packages as p', 'p.id', 'f.package_id')
    .leftJoin('versions as v', (j) =>
      j
        .onRef('v.package_id', '=', 'f.package_id')
        .onRef('v.version_normalized', '=', 'f.version_normalized'),
    )
    .select(['p.name', 'f.version_normalized', 'v.version'])
    .where('f.tenant_id', '=', tenantId)
    .where('f.customer_id', '=', customerId)
    .orderBy('p.name')
    .orderBy('f.version_normalized')
    .execute();
  return rows.map((r) => ({ package: r.name, version: r.version ?? r.version_normalized }));
}

/** Forgets the customer's frozen set (it is active again), in the caller's transaction. */
export async function clearFrozenSet(trx: Db, tenantId: string, customerId: string) {
  await trx
    .deleteFrom('frozen_versions')
    .where('tenant_id', '=', tenantId)
    .where('customer_id', '=', customerId)
    .execute();
}

/** Replaces the customer's frozen set with `frozen`, in the caller's transaction. */
export async function replaceFrozenSet(
  trx: Db,
  tenantId: string,
  customerId: string,
  frozen: { packageId: string; normalized: string }[],
): Promise<void> {
  await clearFrozenSet(trx, tenantId, customerId);
  for (let i = 0; i < frozen.length; i += INSERT_CHUNK) {
    await trx
      .insertInto('frozen_versions')
      .values(
        frozen.slice(i, i + INSERT_CHUNK).map((f) => ({
          tenant_id: tenantId,
          customer_id: customerId,
          package_id: f.packageId,
          version_normalized: f.normalized,
        })),
      )
      .execute();
  }
}
