import type { Config } from '../../config/index.js';
import type { Ctx, Deps } from '../../context.js';
import { nowIso } from '../../context.js';
import { conflict, notFound } from '../../errors.js';
import type { Db } from '../../infra/db/connection.js';
import { isUniqueViolation } from '../../infra/db/errors.js';
import { forTenant } from '../../infra/db/tenant-scope.js';
import { hasFeature } from '../../editions.js';
import { transact } from '../../unit-of-work.js';
import { accessChangedFor, auditCustomer } from './grant-effects.js';
import type { AccessRow } from './store.js';

/**
 * Grants of public (proxied) packages by name, for PROXY_VISIBILITY=granted (docs/proxy.md):
 * a customer then sees a public package only when granted it, its versions filtered by the
 * grant's constraint like a private package's. Direct grants only (collections hold registry
 * packages). With `all`, public names need no grant and these are not used. Every query goes
 * through the tenant-bound handle (infra/db/tenant-scope.ts).
 */
export function publicGrantsOn(config: Readonly<Config>): boolean {
  return (
    config.proxy.upstreamUrl !== null &&
    config.proxy.visibility === 'granted' &&
    hasFeature(config.edition, 'proxy')
  );
}

export async function findPublicGrant(db: Db, tenantId: string, customerId: string, name: string) {
  return forTenant(db, tenantId)
    .selectFrom('public_grants')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('customer_id', '=', customerId)
    .where('name', '=', name)
    .executeTakeFirst();
}

/** The customer's public grants as access rows, by name. */
export async function listPublicGrants(
  db: Db,
  tenantId: string,
  customerId: string,
): Promise<AccessRow[]> {
  const rows = await forTenant(db, tenantId)
    .selectFrom('public_grants')
    .select(['name', 'constraint', 'granted_at'])
    .where('tenant_id', '=', tenantId)
    .where('customer_id', '=', customerId)
    .orderBy('name')
    .execute();
  return rows.map((r) => ({
    package: r.name,
    constraint: r.constraint,
    granted_at: r.granted_at,
    via_collection: null,
  }));
}

/** Grants public package `name`; `conflict` refuses an existing grant, `update` replaces it. */
export async function grantPublic(
  deps: Deps,
  ctx: Ctx,
  customerId: string,
  name: string,
  constraint: string,
  { onExisting, within }: { onExisting: 'conflict' | 'update'; within?: Db },
): Promise<{ access: AccessRow; created: boolean }> {
  const existing = await findPublicGrant(within ?? deps.db, ctx.tenantId, customerId, name);
  if (existing && onExisting === 'conflict') {
    throw conflict(
      `Package ${name} is already granted to customer ${customerId} with constraint ${existing.constraint}`,
    );
  }
  const granted_at = existing?.constraint === constraint ? existing.granted_at : nowIso();
  const row = { tenant_id: ctx.tenantId, customer_id: customerId, name, constraint, granted_at };
  try {
    await transact(
      deps,
      ctx,
      async (tx) => {
        await forTenant(tx.db, ctx.tenantId)
          .insertInto('public_grants')
          .values(row)
          .onConflict((oc) =>
            onExisting === 'conflict'
              ? oc.doNothing()
              : oc.columns(['customer_id', 'name']).doUpdateSet({ constraint, granted_at }),
          )
          .execute();
        await auditCustomer(tx.db, 'access.grant', customerId, {
          package: name,
          constraint,
          previous: existing?.constraint ?? null,
          public: true,
        });
        accessChangedFor(tx, customerId, 'ACCESS_GRANTED', [{ name, constraint }]);
      },
      { within },
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`Package ${name} is already granted`);
    throw err;
  }
  return {
    access: { package: name, constraint, granted_at, via_collection: null },
    created: existing === undefined,
  };
}

export async function revokePublic(
  deps: Deps,
  ctx: Ctx,
  customerId: string,
  name: string,
): Promise<void> {
  await transact(deps, ctx, async (tx) => {
    const gone = await forTenant(tx.db, ctx.tenantId)
      .deleteFrom('public_grants')
      .where('tenant_id', '=', ctx.tenantId)
      .where('customer_id', '=', customerId)
      .where('name', '=', name)
      .returning('constraint')
      .executeTakeFirst();
    if (!gone) throw notFound('Package access');
    await auditCustomer(tx.db, 'access.revoke', customerId, { package: name, public: true });
    accessChangedFor(tx, customerId, 'ACCESS_REVOKED', [{ name, constraint: gone.constraint }]);
  });
}
