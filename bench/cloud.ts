/**
 * Issue 14's figures for the Cloud edition, each against `packyard serve` in a child process:
 * - tenant resolution on a cached p2 answer: the same 100 packages and grants served by a
 *   single-registry (pro) server and by a Cloud tenant on its own host (target: under 5 % slower);
 * - 1,000 tenants of 100 packages each against 1 tenant: a tenant's cached p2 and its admin
 *   package list (target: no more than 10 % slower).
 * BENCH_CLOUD_TENANTS (1000) sets the number of tenants. `npm run bench` runs it;
 * `node --import tsx bench/cloud.ts` runs it alone.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Insertable } from 'kysely';
import { loadConfig } from '../src/config.js';
import { openRuntime } from '../src/runtime.js';
import { buildVersionEntry, rebuildPackageMetadata } from '../src/composer/metadata.js';
import { DEFAULT_TENANT_ID } from '../src/infra/db/schema.js';
import type { PackagesTable, VersionsTable } from '../src/infra/db/schema.js';
import { unscoped } from '../src/infra/db/tenant-scope.js';
import { measure } from './load.js';
import type { LoadResult } from './load.js';
import { basicAuth } from './packyard.js';
import { ChildServer, freePort } from './processes.js';
import { fmt, heading, item } from './report.js';
import { loadLine } from './settings.js';

export const CLOUD_TARGETS = { resolutionOverhead: 0.05, manyTenantsSlowdown: 0.1 };
const PACKAGES_PER_TENANT = 100;
const TAGS = ['1.0.0', '1.1.0', '2.0.0'];
const BASE_DOMAIN = 'bench.test';
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
const system = { actor: { kind: 'system' as const, id: null } };

interface Seeded {
  /** Headers of the measured tenant's customer (all 100 packages granted) and of its owner. */
  composer: Record<string, string>;
  owner: Record<string, string>;
  paths: string[];
}

const sha1 = (s: string) => crypto.createHash('sha1').update(s).digest('hex');

/** Writes `tenants` tenants of 100 packages each (or the default registry's 100) into DATA_DIR. */
async function seed(dataDir: string, edition: 'pro' | 'cloud', tenants: number): Promise<Seeded> {
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

async function serve(dataDir: string, edition: 'pro' | 'cloud'): Promise<ChildServer> {
  const port = await freePort();
  return ChildServer.start({
    label: `packyard (${edition})`,
    port,
    nodeArgs: ['bin/packyard.js', 'serve'],
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_TOKEN,
      EDITION: edition,
      BASE_DOMAIN,
      BASE_URL: `http://${BASE_DOMAIN}:${port}`,
      LOG_LEVEL: 'warn',
      WORKER: 'off',
      WEB_CONCURRENCY: '1',
      RATE_LIMIT_COMPOSER_PER_MINUTE: '100000000',
      RATE_LIMIT_ADMIN_PER_MINUTE: '100000000',
      PROXY_UPSTREAM_URL: 'off',
    },
    ready: async (url) => (await fetch(`${url}/healthz`)).ok,
  });
}

interface Scenario {
  label: string;
  edition: 'pro' | 'cloud';
  tenants: number;
  dataDir: string;
  seeded: Seeded;
  server: ChildServer;
  p2: LoadResult[];
  admin: LoadResult[];
}

const ADMIN_LIST = ['/api/v1/packages?per_page=50', '/api/v1/packages?per_page=50&page=2'];

async function prepare(label: string, edition: 'pro' | 'cloud', tenants: number) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-bench-cloud-'));
  const started = performance.now();
  const seeded = await seed(dataDir, edition, tenants);
  item(`${label}: seeded in`, `${((performance.now() - started) / 1000).toFixed(1)} s`);
  const server = await serve(dataDir, edition);
  const scenario: Scenario = {
    label,
    edition,
    tenants,
    dataDir,
    seeded,
    server,
    p2: [],
    admin: [],
  };
  return scenario;
}

/** The run of median requests/s. */
const median = (runs: LoadResult[]): LoadResult =>
  [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)]!;

const slower = (base: LoadResult, other: LoadResult) => 1 - other.rps / base.rps;
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

export async function benchCloud(): Promise<{
  resolutionOverhead: number;
  p2Slowdown: number;
  adminSlowdown: number;
}> {
  const tenants = Math.round(Number(process.env.BENCH_CLOUD_TENANTS ?? 1000));
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
  const rounds = Math.round(Number(process.env.BENCH_ROUNDS ?? 3));
  heading(`(i) Cloud: tenant resolution, and ${fmt.int(tenants)} tenants against 1 (issue 14)`);
  const scenarios: Scenario[] = [];
  try {
    scenarios.push(await prepare('single registry (pro)', 'pro', 1));
    scenarios.push(await prepare('Cloud, 1 tenant', 'cloud', 1));
    scenarios.push(await prepare(`Cloud, ${fmt.int(tenants)} tenants`, 'cloud', tenants));
    const load = (sc: Scenario, paths: string[], headers: Record<string, string>, s: number) =>
      measure({ baseUrl: sc.server.url, paths, headers, connections, seconds: s });
    // Every document cached, every list read once, before anything is measured.
    for (const sc of scenarios) {
      await load(sc, sc.seeded.paths, sc.seeded.composer, 2);
      await load(sc, ADMIN_LIST, sc.seeded.owner, 1);
    }
    // Interleaved rounds, so a slow moment of the machine does not land on one scenario only.
    for (let round = 0; round < rounds; round++) {
      for (const sc of scenarios)
        sc.p2.push(await load(sc, sc.seeded.paths, sc.seeded.composer, seconds));
      for (const sc of scenarios)
        sc.admin.push(await load(sc, ADMIN_LIST, sc.seeded.owner, seconds));
    }
  } finally {
    for (const sc of scenarios) {
      await sc.server.stop();
      fs.rmSync(sc.dataDir, { recursive: true, force: true });
    }
  }
  for (const sc of scenarios) {
    item(`${sc.label}: cached p2 (median of ${rounds})`, loadLine(median(sc.p2)));
    item(`${sc.label}: admin package list`, loadLine(median(sc.admin)));
  }
  const [single, one, many] = scenarios.map((sc) => ({
    p2: median(sc.p2),
    admin: median(sc.admin),
  })) as [
    { p2: LoadResult; admin: LoadResult },
    { p2: LoadResult; admin: LoadResult },
    { p2: LoadResult; admin: LoadResult },
  ];
  const resolutionOverhead = slower(single.p2, one.p2);
  const p2Slowdown = slower(one.p2, many.p2);
  const adminSlowdown = slower(one.admin, many.admin);
  const verdict = (x: number, target: number) => (x <= target ? 'PASS' : 'MISS');
  item(
    'tenant resolution on a cached p2',
    `${pct(resolutionOverhead)} fewer requests/s than a single registry (target < ${pct(CLOUD_TARGETS.resolutionOverhead)}): ${verdict(resolutionOverhead, CLOUD_TARGETS.resolutionOverhead)}`,
  );
  item(
    `${fmt.int(tenants)} tenants vs 1: cached p2`,
    `${pct(p2Slowdown)} slower (target ≤ ${pct(CLOUD_TARGETS.manyTenantsSlowdown)}): ${verdict(p2Slowdown, CLOUD_TARGETS.manyTenantsSlowdown)}`,
  );
  item(
    `${fmt.int(tenants)} tenants vs 1: admin list`,
    `${pct(adminSlowdown)} slower (target ≤ ${pct(CLOUD_TARGETS.manyTenantsSlowdown)}): ${verdict(adminSlowdown, CLOUD_TARGETS.manyTenantsSlowdown)}`,
  );
  return { resolutionOverhead, p2Slowdown, adminSlowdown };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  benchCloud().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
