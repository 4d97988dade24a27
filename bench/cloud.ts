/**
 * Issue 14's figures for the Cloud edition, each against `packyard serve` in a child process:
 * - tenant resolution on a cached p2 answer: the same 100 packages and grants served by a
 *   single-registry (pro) server and by a Cloud tenant on its own host (target: under 5 % slower);
 * - 1,000 tenants of 100 packages each against 1 tenant: a tenant's cached p2 and its admin
 *   package list (target: no more than 10 % slower).
 * BENCH_CLOUD_TENANTS (1000) sets the number of tenants. `npm run bench` runs it;
 * `node --import tsx bench/cloud.ts` runs it alone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measure } from './load.js';
import type { LoadResult } from './load.js';
import { ADMIN_TOKEN, BASE_DOMAIN, seed } from './cloud-seed.js';
import type { Seeded } from './cloud-seed.js';
import { ChildServer, freePort } from './processes.js';
import { fmt, heading, item } from './report.js';
import { loadLine } from './settings.js';

export const CLOUD_TARGETS = { resolutionOverhead: 0.05, manyTenantsSlowdown: 0.1 };

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
    // Interleaved rounds in alternating order, so neither a slow moment of the machine nor the
    // run right after another load (measurably slower here) lands on one scenario only.
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? scenarios : [...scenarios].reverse();
      for (const sc of order) {
        sc.p2.push(await load(sc, sc.seeded.paths, sc.seeded.composer, seconds));
      }
      for (const sc of order) sc.admin.push(await load(sc, ADMIN_LIST, sc.seeded.owner, seconds));
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
