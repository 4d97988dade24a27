/**
 * `npm run bench`: throughput of the Composer p2 route against a bare node:http floor, its
 * sensitivity to catalogue size, the time to sync a repository with many tags, and the server's
 * memory. Servers run as child processes; this process only seeds data and generates load.
 * Missed targets are reported, not failed: only errors make the exit code non-zero.
 *
 * (g) compares Packyard at WEB_CONCURRENCY with nginx serving the same bytes, both under wrk;
 * (j) the 100,000-package scale figures (bench/scale.ts, SQLite and PostgreSQL); (k) the mixed
 * load on two web nodes and a worker (bench/mixed.ts, PostgreSQL, Redis and s3rver).
 * Settings (environment): BENCH_SECONDS (10) per measured run, BENCH_ROUNDS (2) interleaved
 * rounds per catalogue, BENCH_CONNECTIONS (50), BENCH_CPU_PROF=1 to profile the servers,
 * BENCH_ONLY=p2 for sections (a), (b) and (d) alone.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { satisfies } from '../src/composer/semver/index.js';
import { CATALOGUE_TAGS, seedCatalogue } from './catalogue.js';
import type { Catalogue } from './catalogue.js';
import { startReference } from './reference-server.js';
import type { ReferenceKind } from './reference-server.js';
import { meanOf, measure } from './load.js';
import type { LoadOptions, LoadResult } from './load.js';
import { AdminApi, basicAuth, startPackyard } from './packyard.js';
import type { ChildServer } from './processes.js';
import { busiestProfile, formatProfile } from './profile.js';
import { fmt, heading, item } from './report.js';
import { loadLine, printMachine, readSettings } from './settings.js';
import type { Settings } from './settings.js';
import { summary } from './summary.js';
import { benchSync } from './sync.js';
import { benchProxy } from './proxy.js';
import { benchAdvisories } from './advisories.js';
import { benchCloud } from './cloud.js';
import { benchScale } from './scale.js';
import { benchMixed } from './mixed.js';
import { YARDSTICK_CONNECTIONS, benchYardstick } from './yardstick-run.js';
import { ensureYardstickTools } from './yardstick.js';

/** Fetches every p2 document once: the floor serves these bytes; also checks the filtering. */
async function captureBodies(
  baseUrl: string,
  paths: string[],
  headers: Record<string, string>,
  constraint: string,
): Promise<Map<string, Buffer>> {
  const bodies = new Map<string, Buffer>();
  let visible = 0;
  for (const p of paths) {
    const res = await fetch(baseUrl + p, { headers });
    const bytes = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200) throw new Error(`GET ${p} -> ${res.status} ${bytes.toString('utf8')}`);
    const doc = JSON.parse(bytes.toString('utf8')) as { packages: Record<string, unknown> };
    const versions = Object.values(doc.packages)[0] as { version: string }[] | undefined;
    const outside = (versions ?? []).filter((v) => !satisfies(v.version, constraint));
    if (!versions?.length || outside.length > 0) {
      throw new Error(`GET ${p} is not filtered by ${constraint}: ${bytes.toString('utf8')}`);
    }
    visible += versions.length;
    bodies.set(p, bytes);
  }
  const size = [...bodies.values()].reduce((n, b) => n + b.length, 0) / bodies.size;
  item(
    '  p2 documents under load',
    `${bodies.size} granted, ${(visible / bodies.size).toFixed(1)} of ${CATALOGUE_TAGS.length} ` +
      `tags visible each (${constraint}), ${fmt.kb(size)} body`,
  );
  return bodies;
}

function printMemory(runs: Served[], memory: ReturnType<ChildServer['memory']>[]): void {
  heading('(d) server memory (VmRSS from /proc/<pid>/status after the load)');
  runs.forEach((run, i) => {
    const m = memory[i];
    item(
      `${fmt.int(run.catalogue.packages)} packages`,
      m ? `${fmt.mb(m.rss)} (peak ${fmt.mb(m.peak)})` : 'n/a (no /proc)',
    );
  });
}

/** A seeded catalogue served by its own child process, with a customer token ready. */
interface Served {
  catalogue: Catalogue;
  server: ChildServer;
  dataDir: string;
  load: LoadOptions;
  bodies: Map<string, Buffer>;
  /** How long the server ran before the load started (its CPU profile skips that part). */
  profileSkipMs: number | null;
  rounds: LoadResult[];
}

async function serveCatalogue(
  s: Settings,
  work: string,
  adminToken: string,
  count: number,
  profileDir: string | null,
): Promise<Served> {
  const dataDir = path.join(work, `catalogue-${count}`);
  const catalogue = await seedCatalogue({ dataDir, adminToken, count, grants: s.grants });
  item(
    `${fmt.int(count)}-package catalogue`,
    `${fmt.int(catalogue.versions)} versions written to SQLite in ${fmt.s(catalogue.seconds)}`,
  );
  const server = await startPackyard({ dataDir, adminToken, cpuProfDir: profileDir });
  try {
    const api = new AdminApi(server.url, adminToken);
    const token = await api.customerWithToken(catalogue.granted, s.constraint);
    const headers = { authorization: basicAuth(token) };
    const paths = catalogue.granted.map((name) => `/p2/${name}.json`);
    const bodies = await captureBodies(server.url, paths, headers, s.constraint);
    const load = {
      baseUrl: server.url,
      paths,
      headers,
      connections: s.connections,
      seconds: s.seconds,
    };
    return { catalogue, server, dataDir, load, bodies, profileSkipMs: null, rounds: [] };
  } catch (err) {
    await server.stop();
    throw err;
  }
}

async function benchReference(
  s: Settings,
  work: string,
  kind: ReferenceKind,
  source: Served,
): Promise<LoadResult> {
  const server = await startReference(kind, source.bodies, path.join(work, 'bodies.json'));
  try {
    const load = { ...source.load, baseUrl: server.url };
    await measure({ ...load, seconds: s.warmupSeconds });
    return await measure(load);
  } finally {
    await server.stop();
  }
}

function printProfile(dir: string, label: string, skipMs: number): void {
  heading(`CPU profile of the server: ${label}`);
  const summary = busiestProfile(dir, skipMs);
  console.log(summary ? formatProfile(summary) : '  (no profile was written)');
}

async function main(): Promise<void> {
  const s = readSettings();
  ensureYardstickTools();
  const started = performance.now();
  printMachine(s);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-bench-'));
  const profiles = s.profile
    ? fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-bench-profiles-'))
    : null;
  const profileDir = (name: string) => {
    if (!profiles) return null;
    const dir = path.join(profiles, name);
    fs.mkdirSync(dir);
    return dir;
  };
  const adminToken = crypto.randomBytes(24).toString('hex');
  const served: Served[] = [];
  try {
    heading('Catalogues, each served by `node bin/packyard.js serve` in a child process');
    const small = await serveCatalogue(s, work, adminToken, s.smallCatalogue, profileDir('small'));
    served.push(small);
    const large = await serveCatalogue(s, work, adminToken, s.largeCatalogue, profileDir('large'));
    served.push(large);

    heading(`p2 load: authenticated GET /p2/<vendor>/<name>.json, ${s.grants} packages rotating`);
    for (const run of served) {
      run.profileSkipMs = performance.now() - run.server.startedAt;
      await measure({ ...run.load, seconds: s.warmupSeconds });
    }
    // Interleaved, and in alternating order, so neither drift of the machine over time nor
    // whatever runs right after a load (here the second measurement was ~25% slower, whichever
    // catalogue it was) favours one catalogue.
    for (let round = 1; round <= s.rounds; round++) {
      for (const run of round % 2 === 1 ? served : [...served].reverse()) {
        const result = await measure(run.load);
        run.rounds.push(result);
        item(`round ${round}, ${fmt.int(run.catalogue.packages)} packages`, loadLine(result));
      }
    }
    const memory = served.map((run) => run.server.memory());
    const floor = await benchReference(s, work, 'node', small);
    item('floor: bare node:http, same bytes', loadLine(floor));
    const fastify = await benchReference(s, work, 'fastify', small);
    item('reference: one Fastify route, same bytes', loadLine(fastify));

    const smallLoad = meanOf(small.rounds);
    const largeLoad = meanOf(large.rounds);
    heading(`(a) p2 vs floor, ${fmt.int(s.smallCatalogue)}-package catalogue`);
    item(`Packyard, mean of ${s.rounds} rounds`, loadLine(smallLoad));
    item('floor', loadLine(floor));
    item('ratio Packyard / floor (req/s)', fmt.ratio(smallLoad.rps / floor.rps));
    item('for reference: Fastify alone / floor', fmt.ratio(fastify.rps / floor.rps));

    heading(`(b) p2 with ${fmt.int(s.smallCatalogue)} vs ${fmt.int(s.largeCatalogue)} packages`);
    item(`${fmt.int(s.smallCatalogue)} packages`, loadLine(smallLoad));
    item(`${fmt.int(s.largeCatalogue)} packages`, loadLine(largeLoad));
    item('difference in req/s', fmt.pct((largeLoad.rps - smallLoad.rps) / smallLoad.rps));

    if (process.env.BENCH_ONLY === 'p2') {
      // Sections (a), (b) and (d) alone: the rest have their own scripts (README, Benchmarks).
      printMemory(served, memory);
      return;
    }

    heading(
      `(g) the yardstick: wrk, ${YARDSTICK_CONNECTIONS} connections, the same ${s.grants} p2 documents`,
    );
    const yardstick = await benchYardstick(
      { ...small, ...small.load, adminToken },
      work,
      s.seconds,
    );

    for (const run of served.splice(0)) {
      await run.server.stop();
      fs.rmSync(run.dataDir, { recursive: true, force: true });
    }

    heading(`(c) sync of a repository with ${fmt.int(s.tags)} tags`);
    const sync = await benchSync(s, work, adminToken, profileDir('sync'));

    const proxy = await benchProxy(s, work, adminToken);

    await benchAdvisories();
    await benchCloud();
    const scale = await benchScale();
    const mixed = await benchMixed();

    printMemory([small, large], memory);

    if (profiles) {
      for (const [name, run] of [
        ['small', small],
        ['large', large],
      ] as const) {
        const label = `p2 load, ${fmt.int(run.catalogue.packages)} packages`;
        printProfile(path.join(profiles, name), label, run.profileSkipMs ?? 0);
      }
      printProfile(path.join(profiles, 'sync'), 'sync', sync.profileSkipMs);
      console.log(`\n  profiles kept in ${profiles} (open them in Chrome DevTools)`);
    }

    summary(s, {
      small: smallLoad,
      large: largeLoad,
      floor,
      fastify,
      sync,
      rss: memory[1]?.rss ?? null,
      proxy,
      yardstick,
      scale,
      mixed,
    });
    console.log(`\nTotal time ${fmt.s((performance.now() - started) / 1000)}`);
  } finally {
    for (const run of served) await run.server.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error('\nbench failed:', err);
  process.exitCode = 1;
});
