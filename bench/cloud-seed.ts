/** The data of bench/cloud.ts: tenants of 100 packages each, written straight to the database. */
import crypto from 'node:crypto';
import type { Insertable } from 'kysely';
import { loadConfig } from '../src/config/index.js';
import { openRuntime } from '../src/runtime.js';
import { buildVersionEntry, rebuildPackageMetadata } from '../src/composer/metadata.js';
import { DEFAULT_TENANT_ID } from '../src/infra/db/schema.js';
import type { PackagesTable, VersionsTable } from '../src/infra/db/schema.js';
import { unscoped } from '../src/infra/db/tenant-scope.js';
import { basicAuth } from './packyard.js';

const PACKAGES_PER_TENANT = 100;
const TAGS = ['1.0.0', '1.1.0', '2.0.0'];
export const BASE_DOMAIN = 'bench.test';
export const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
const system = { actor: { kind: 'system' as const, id: null } };

export interface Seeded {
  /** Headers of the measured tenant's customer (all 100 packages granted) and of its owner. */
  composer: Record<string, string>;
  owner: Record<string, string>;
  paths: string[];
}

const sha1 = (s: string) => crypto.createHash('sha1').update(s).digest('hex');

/** Writes `tenants` tenants of 100 packages each (or the default registry's 100) into DATA_DIR. */
export async function seed(
  dataDir: string,
  edition: 'pro' | 'cloud',
  tenants: number,
): Promise<Seeded> {
  const runtime = await openRuntime(
    loadConfig({
      DATA_DIR: dataDir,
      ADMIN_TOKEN,
      EDITION: edition,
      BASE_DOMAIN,
      WORKER: 'off',
      LOG_LEVEL: 'warn',
    }),
  );
  const { services } = runtime;
  const db = unscoped(services.deps.db, 'the benchmark seeds every tenant');
  const now = new Date().toISOString();
  const tenantIds =
    edition === 'pro'
      ? [DEFAULT_TENANT_ID]
      : Array.from({ length: tenants }, (_, i) => `t${String(i).padStart(4, '0')}`);
  try {
    for (const tenantId of tenantIds) {
      if (edition === 'cloud') {
        await db
          .insertInto('tenants')
          .values({
            id: tenantId,
            name: tenantId,
            subdomain: tenantId,
            plan: 'enterprise',
            status: 'active',
            created_at: now,
            updated_at: now,
          })
          .execute();
      }
      const packages: Insertable<PackagesTable>[] = [];
      const versions: Insertable<VersionsTable>[] = [];
      for (let i = 0; i < PACKAGES_PER_TENANT; i++) {
        // The same names in every tenant, as vendors' catalogues would overlap.
        const name = `vendor${String(i % 10)}/package-${String(i).padStart(3, '0')}`;
        const id = crypto.randomUUID();
        packages.push({
          id,
          tenant_id: tenantId,
          name,
          description: `Package ${i}`,
          repository_url: `https://git.example.test/${tenantId}/${name}.git`,
          repository_key: `git.example.test/${tenantId}/${name}`,
          type: 'git',
          latest_version: '2.0.0',
          default_branch: 'main',
          readme: null,
          synced_at: now,
          sync_status: 'ok',
          sync_error: null,
          sync_skipped: '[]',
          abandoned: 0,
          created_at: now,
          updated_at: now,
        });
        for (const tag of TAGS) {
          const reference = sha1(`${tenantId}/${name}@${tag}`);
          const normalized = `${tag}.0`;
          versions.push({
            id: crypto.randomUUID(),
            tenant_id: tenantId,
            package_id: id,
            version: tag,
            version_normalized: normalized,
            is_dev: 0,
            reference,
            released_at: now,
            metadata: JSON.stringify(
              buildVersionEntry({
                name,
                version: tag,
                normalized,
                reference,
                shasum: sha1(reference),
                time: now,
                defaultBranch: false,
                composer: { name, require: { php: '>=8.1' }, license: ['proprietary'] },
              }),
            ),
            yanked: 0,
            deprecated: 0,
            dist_key: `${tenantId}/${id}/${reference}.zip`,
            dist_shasum: sha1(reference),
            dist_size: 20_000,
            created_at: now,
            updated_at: now,
          });
        }
      }
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('packages').values(packages).execute();
        for (let k = 0; k < versions.length; k += 300) {
          await trx
            .insertInto('versions')
            .values(versions.slice(k, k + 300))
            .execute();
        }
        for (const p of packages) await rebuildPackageMetadata(trx, tenantId, p.id);
      });
    }
    // The measured tenant (the first): a customer granted everything, and an owner token.
    const ctx = { tenantId: tenantIds[0]!, ...system };
    const customer = await services.customers.create(ctx, {
      name: 'Bench',
      email: 'bench@example.test',
    });
    const names = (
      await db.selectFrom('packages').select('name').where('tenant_id', '=', ctx.tenantId).execute()
    ).map((r) => r.name);
    for (const name of names) {
      await services.access.grant(
        ctx,
        customer.id,
        { package: name, constraint: '^1.0' },
        { onExisting: 'update' },
      );
    }
    const token = await services.tokens.create(ctx, customer.id, { name: 'bench' });
    const owner = await services.team.create(ctx, { name: 'owner', level: 'owner' });
    const host: Record<string, string> =
      edition === 'cloud' ? { host: `${ctx.tenantId}.${BASE_DOMAIN}` } : {};
    return {
      composer: { ...host, authorization: basicAuth(token.plain) },
      owner: { ...host, authorization: `Bearer ${owner.plain}` },
      paths: names.map((n) => `/p2/${n}.json`),
    };
  } finally {
    await runtime.close();
  }
}
