/**
 * `npm run bench`: throughput of the Composer p2 route against a bare node:http floor, its
 * sensitivity to catalogue size, the time to sync a repository with many tags, and the server's
 * memory. Servers run as child processes; this process only seeds data and generates load.
 * Missed targets are reported, not failed: only errors make the exit code non-zero.
 *
 * (g) compares Packyard at WEB_CONCURRENCY with nginx serving the same bytes, both under wrk.
 * Settings (environment): BENCH_SECONDS (10) per measured run, BENCH_ROUNDS (2) interleaved
 * rounds per catalogue, BENCH_CONNECTIONS (50), BENCH_CPU_PROF=1 to profile the servers.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { satisfies } from '../src/composer/semver/index.js';
import { CATALOGUE_TAGS, seedCatalogue } from './catalogue.js';
import type { Catalogue } from './catalogue.js';
import { startReference } from './reference-server.js';
import type { ReferenceKind } from './reference-server.js';
import { createTaggedRepo } from './git-tags.js';
import { meanOf, measure } from './load.js';
import type { LoadOptions, LoadResult } from './load.js';
import { AdminApi, basicAuth, startPackyard } from './packyard.js';
import type { ChildServer } from './processes.js';
import { busiestProfile, formatProfile } from './profile.js';
import { fmt, heading, item, table, verdict } from './report.js';
import { PROXY_TARGETS, benchProxy } from './proxy.js';
import type { ProxyBench } from './proxy.js';
import { YARDSTICK_CONNECTIONS, benchYardstick } from './yardstick-run.js';
import type { Yardstick } from './yardstick-run.js';

const TARGETS = {
  /** (a) our p2 requests/second over the floor's. */
  floorRatio: 0.6,
  /** (b) largest relative difference between the small and the large catalogue. */
  catalogueDrift: 0.15,
  /** (c) seconds from adding the package to a finished sync. */
  syncSeconds: 5,
  /** (d) resident memory after the large-catalogue load. */
  rssBytes: 300 * 1024 * 1024,
  /** (e) Packyard at WEB_CONCURRENCY over nginx serving the same bytes (issue 15). */
  nginxRatio: 0.9,
  p99Ms: 10,
  processRssBytes: 400 * 1024 * 1024,
};

interface Settings {
  seconds: number;
  warmupSeconds: number;
  rounds: number;
  connections: number;
  grants: number;
  constraint: string;
  smallCatalogue: number;
  largeCatalogue: number;
  tags: number;
  /** Run the servers under --cpu-prof and summarize the profiles. */
  profile: boolean;
}

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be > 0, got "${raw}"`);
  return value;
}

function readSettings(): Settings {
  const seconds = positiveNumber('BENCH_SECONDS', 10);
  return {
    seconds,
    warmupSeconds: Math.min(2, seconds),
    rounds: Math.round(positiveNumber('BENCH_ROUNDS', 2)),
    connections: Math.round(positiveNumber('BENCH_CONNECTIONS', 50)),
    grants: 50,
    constraint: '^1.0',
    smallCatalogue: 100,
    largeCatalogue: Math.round(positiveNumber('BENCH_LARGE_CATALOGUE', 10_000)),
    tags: 1000,
    profile: ['1', 'on', 'true', 'yes'].includes((process.env.BENCH_CPU_PROF ?? '').toLowerCase()),
  };
}

function printMachine(s: Settings): void {
  const cpus = os.cpus();
  heading('Machine');
  item('cpus', `${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown'}`);
  item('memory', fmt.mb(os.totalmem()));
  item('os', `${os.type()} ${os.release()} ${os.arch()}`);
  item('node', process.version);
  item('git', execFileSync('git', ['--version'], { encoding: 'utf8' }).trim());
  item(
    'load generator',
    `autocannon in this process, ${s.connections} connections, ` +
      `${s.seconds} s per run after ${s.warmupSeconds} s warm-up`,
  );
}

function loadLine(r: LoadResult): string {
  return (
    `${fmt.int(r.rps)} req/s, p50 ${fmt.ms(r.p50)}, p99 ${fmt.ms(r.p99)} ` +
    `(${fmt.int(r.requests)} requests, client CPU ${Math.round(r.clientCpu * 100)}%)`
  );
}

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

interface SyncRun {
  /** Seconds of each round, and their mean. */
  rounds: number[];
  seconds: number;
  versions: number;
  fromTags: number;
  /** How long the profiled (first) server ran before the sync started. */
  profileSkipMs: number;
}

/**
 * Adds a package whose repository has `s.tags` tags and times it until its sync is ok, once per
 * round, each time on a fresh server and DATA_DIR.
 */
async function benchSync(
  s: Settings,
  work: string,
  adminToken: string,
  profileDir: string | null,
): Promise<SyncRun> {
  const name = 'bench/many-tags';
  const repo = createTaggedRepo(name, s.tags);
  const rounds: number[] = [];
  let versions = 0;
  let fromTags = 0;
  let profileSkipMs = 0;
  try {
    item(
      'repository (git fast-import)',
      `${fmt.int(repo.tags)} tags built in ${fmt.s(repo.seconds)}`,
    );
    for (let round = 1; round <= s.rounds; round++) {
      const dataDir = path.join(work, `sync-${round}`);
      const cpuProfDir = round === 1 ? profileDir : null;
      const server = await startPackyard({ dataDir, adminToken, cpuProfDir });
      try {
        const api = new AdminApi(server.url, adminToken);
        const started = performance.now();
        if (round === 1) profileSkipMs = started - server.startedAt;
        await api.addPackage(name, repo.url);
        const pkg = await api.waitForSync(name);
        const seconds = (performance.now() - started) / 1000;
        if (pkg.sync_status !== 'ok') {
          throw new Error(`Sync of ${name} ended ${pkg.sync_status}: ${pkg.sync_error ?? ''}`);
        }
        const isDev = (v: string) => v.startsWith('dev-') || v.endsWith('-dev');
        fromTags = pkg.versions.filter((v) => !isDev(v.version)).length;
        versions = pkg.versions.length;
        rounds.push(seconds);
        item(
          `round ${round}: POST /api/v1/packages -> ok`,
          `${fmt.s(seconds)}, ${fmt.int(versions)} versions created ` +
            `(${fmt.int(fromTags)} from tags, ${fmt.int(versions - fromTags)} from branches)`,
        );
      } finally {
        await server.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }
  } finally {
    repo.remove();
  }
  const seconds = rounds.reduce((a, b) => a + b, 0) / rounds.length;
  item(`mean of ${rounds.length} rounds`, fmt.s(seconds));
  return { rounds, seconds, versions, fromTags, profileSkipMs };
}

function printProfile(dir: string, label: string, skipMs: number): void {
  heading(`CPU profile of the server: ${label}`);
  const summary = busiestProfile(dir, skipMs);
  console.log(summary ? formatProfile(summary) : '  (no profile was written)');
}

function summary(
  s: Settings,
  results: {
    small: LoadResult;
    large: LoadResult;
    floor: LoadResult;
    fastify: LoadResult;
    sync: SyncRun;
    rss: number | null;
    proxy: ProxyBench;
    yardstick: Yardstick;
  },
): void {
  const { small, large, floor, fastify, sync, rss, proxy, yardstick: ys } = results;
  const cachedRatio = proxy.publicLoad.rps / proxy.privateLoad.rps;
  const coldRatio = proxy.proxied / proxy.direct;
  const nginxRatio = ys.packyard.rps / ys.nginx.rps;
  const ratio = small.rps / floor.rps;
  const drift = (large.rps - small.rps) / small.rps;
  const pkgs = (n: number) => `${fmt.int(n)} pkgs`;
  heading('Summary');
  console.log(
    table(
      ['measure', 'value', 'target', 'result'],
      [
        [`(a) p2 req/s, ${pkgs(s.smallCatalogue)}`, fmt.int(small.rps), '', ''],
        ['(a) p2 p99 latency', fmt.ms(small.p99), '', ''],
        ['(a) floor req/s (node:http, same bytes)', fmt.int(floor.rps), '', ''],
        ['(a) floor p99 latency', fmt.ms(floor.p99), '', ''],
        [
          '(a) ratio p2 / floor',
          fmt.ratio(ratio),
          `>= ${TARGETS.floorRatio}`,
          verdict(ratio >= TARGETS.floorRatio),
        ],
        [
          '(a) for reference: Fastify route alone / floor',
          fmt.ratio(fastify.rps / floor.rps),
          '',
          '',
        ],
        [`(b) p2 req/s, ${pkgs(s.largeCatalogue)}`, fmt.int(large.rps), '', ''],
        ['(b) p2 p99 latency', fmt.ms(large.p99), '', ''],
        [
          `(b) req/s ${pkgs(s.largeCatalogue)} vs ${pkgs(s.smallCatalogue)}`,
          fmt.pct(drift),
          `within ${TARGETS.catalogueDrift * 100}%`,
          verdict(Math.abs(drift) <= TARGETS.catalogueDrift),
        ],
        [
          `(c) sync of ${fmt.int(s.tags)} tags (mean)`,
          fmt.s(sync.seconds),
          `< ${TARGETS.syncSeconds} s`,
          verdict(sync.seconds < TARGETS.syncSeconds),
        ],
        [
          '(c) versions created',
          `${fmt.int(sync.versions)} (${fmt.int(sync.fromTags)} from tags)`,
          `${fmt.int(s.tags)} from tags`,
          verdict(sync.fromTags === s.tags),
        ],
        [
          `(d) server VmRSS after (b)`,
          rss === null ? 'n/a' : fmt.mb(rss),
          `< ${fmt.mb(TARGETS.rssBytes)}`,
          verdict(rss === null ? null : rss < TARGETS.rssBytes),
        ],
        ['(e) private p2 req/s (same server)', fmt.int(proxy.privateLoad.rps), '', ''],
        ['(e) proxied p2 req/s, from the cache', fmt.int(proxy.publicLoad.rps), '', ''],
        [
          '(e) ratio proxied / private',
          fmt.ratio(cachedRatio),
          `>= ${PROXY_TARGETS.cachedRatio}`,
          verdict(cachedRatio >= PROXY_TARGETS.cachedRatio),
        ],
        ['(f) cold composer update, direct to upstream', fmt.s(proxy.direct), '', ''],
        ['(f) cold composer update, through Packyard', fmt.s(proxy.proxied), '', ''],
        [
          '(f) ratio through Packyard / direct',
          fmt.ratio(coldRatio),
          `<= ${PROXY_TARGETS.coldUpdateRatio}`,
          verdict(coldRatio <= PROXY_TARGETS.coldUpdateRatio),
        ],
        ['(g) nginx req/s (wrk, static, Basic auth)', fmt.int(ys.nginx.rps), '', ''],
        ['(g) nginx p99 latency', fmt.ms(ys.nginx.p99), '', ''],
        ['(g) floor req/s (wrk, node:http, 1 process)', fmt.int(ys.floor.rps), '', ''],
        [`(g) Packyard req/s, WEB_CONCURRENCY=${ys.processes}`, fmt.int(ys.packyard.rps), '', ''],
        [
          '(g) ratio Packyard / nginx',
          fmt.ratio(nginxRatio),
          `>= ${TARGETS.nginxRatio}`,
          verdict(nginxRatio >= TARGETS.nginxRatio),
        ],
        [
          '(g) Packyard p99 latency',
          fmt.ms(ys.packyard.p99),
          `< ${TARGETS.p99Ms} ms`,
          verdict(ys.packyard.p99 < TARGETS.p99Ms),
        ],
        [
          '(g) largest Packyard process VmRSS',
          fmt.mb(ys.rss.largest),
          `< ${fmt.mb(TARGETS.processRssBytes)}`,
          verdict(ys.rss.largest < TARGETS.processRssBytes),
        ],
      ],
    ),
  );
  if (ratio < TARGETS.floorRatio && !s.profile) {
    console.log('\nThe p2 ratio is below target: `BENCH_CPU_PROF=1 npm run bench` profiles it.');
  }
}

async function main(): Promise<void> {
  const s = readSettings();
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

    heading('(d) server memory (VmRSS from /proc/<pid>/status after the load)');
    [small, large].forEach((run, i) => {
      const m = memory[i];
      item(
        `${fmt.int(run.catalogue.packages)} packages`,
        m ? `${fmt.mb(m.rss)} (peak ${fmt.mb(m.peak)})` : 'n/a (no /proc)',
      );
    });

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
