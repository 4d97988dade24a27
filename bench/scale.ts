/**
 * `npm run bench:scale`: issue 15's large-scale figures, on SQLite and on PostgreSQL.
 * - The first answer for a token with 100,000 packages and 100,000 customers in the database,
 *   for new tokens of an audience already served and for tokens of a new audience (nothing
 *   cached: the document is computed);
 * - 10,000 distinct tokens in rotation against one token, and the server's memory after it;
 * - a customer's cached p2 with 100 packages against 100,000.
 * One `packyard serve` process per catalogue (WEB_CONCURRENCY=1), wrk with 64 connections.
 * Settings: BENCH_SCALE_PACKAGES (100000), BENCH_SCALE_SECONDS (5) per wrk run, BENCH_SCALE_PAIRS
 * (8: pairs of new 100- and 100,000-package server processes, two rounds each in turn),
 * BENCH_SCALE_ROUNDS (5: the one-token and rotation runs take turns; ratios are medians of rounds),
 * BENCH_SCALE_DATABASES (sqlite,postgres), DATABASE_URL for PostgreSQL.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { seedCatalogue } from './catalogue.js';
import { basicAuth, startPackyard } from './packyard.js';
import type { ChildServer } from './processes.js';
import type { WrkResult } from './yardstick.js';
import { fmt, heading, item } from './report.js';
import { seedAudiences, PLAN_SIZE } from './scale-seed.js';
import type { Audiences } from './scale-seed.js';
import {
  firstAnswers,
  medianRatio,
  medianRounds,
  roundRatios,
  sideBySide,
  touchAll,
} from './scale-measure.js';
import type { Request } from './scale-measure.js';
import { reportScale } from './scale-report.js';
import type { Engine, ScaleFigures } from './scale-report.js';
import { ensureYardstickTools } from './yardstick.js';

const number = (name: string, fallback: number) => Number(process.env[name] ?? '') || fallback;
const PACKAGES = number('BENCH_SCALE_PACKAGES', 100_000);
const SECONDS = number('BENCH_SCALE_SECONDS', 5);
const ROUNDS = number('BENCH_SCALE_ROUNDS', 5);
const PAIRS = number('BENCH_SCALE_PAIRS', 8);
const ROUNDS_PER_PAIR = 2;
const ROTATING = 10_000;
const FRESH = 2_000;
const OWN = 500;
const PLANS = 20;
const TAGS = ['1.0.0', '1.1.0', '2.0.0'];
const CONNECTIONS = 64;
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** One catalogue of `packages` packages with its customers, seeded (not served yet). */
async function seeded(engine: Engine, work: string, label: string, packages: number) {
  const dataDir = fs.mkdtempSync(path.join(work, `${engine}-${label}-`));
  const schema = `bench_scale_${crypto.randomBytes(4).toString('hex')}_${label}`;
  const env: Record<string, string> =
    engine === 'postgres' ? { DATABASE_URL, DATABASE_SCHEMA: schema } : {};
  const adminToken = crypto.randomBytes(24).toString('hex');
  const started = performance.now();
  await seedCatalogue({ dataDir, adminToken, count: packages, grants: 1, env, tags: TAGS });
  const large = packages >= 10_000;
  const audiences = await seedAudiences({
    env: { DATA_DIR: dataDir, ADMIN_TOKEN: adminToken, ...env },
    customers: large ? packages : 100,
    plans: large ? PLANS : 1,
    tokens: large ? ROTATING + FRESH : 1,
    own: large ? OWN : 0,
  });
  const seedSeconds = (performance.now() - started) / 1000;
  const serve = () => startPackyard({ dataDir, adminToken, env: { ...env, WORKER: 'off' } });
  return { serve, audiences, seedSeconds, schema: engine === 'postgres' ? schema : null };
}

const planRequest = (a: Audiences, t: number, k = t): Request => {
  const { plan, secret } = a.tokens[t]!;
  return [`/p2/${a.plans[plan]![k % PLAN_SIZE]}.json`, basicAuth(secret)];
};
const oneTokenRequests = (a: Audiences) =>
  Array.from({ length: PLAN_SIZE }, (_, k) => planRequest(a, 0, k));

/**
 * Two catalogues' cached p2 side by side on `pairs` pairs of new server processes, started
 * together and warmed alike, two rounds each in alternating order: two processes of the same
 * code and data measured up to 33 % apart here (a median of 10 %, pinned to a core or not), so
 * a 10 % difference is only resolved by the median of many rounds on many processes.
 */
async function flatness(
  a: { name: string; serve: () => Promise<ChildServer>; requests: Request[] },
  b: { name: string; serve: () => Promise<ChildServer>; requests: Request[] },
  opts: { seconds: number; pairs: number; connections: number; work: string },
) {
  const rounds = new Map<string, WrkResult[]>([
    [a.name, []],
    [b.name, []],
  ]);
  for (let pair = 0; pair < opts.pairs; pair++) {
    const servers = await Promise.all([a.serve(), b.serve()]);
    try {
      const sets = [a, b].map((s, k) => ({
        name: s.name,
        url: servers[k]!.url,
        requests: s.requests,
      }));
      const one = await sideBySide(pair % 2 === 0 ? sets : sets.reverse(), {
        ...opts,
        rounds: ROUNDS_PER_PAIR,
      });
      for (const [name, results] of one.rounds) rounds.get(name)!.push(...results);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  }
  return { rounds, median: medianRounds(rounds) };
}

async function scaleOn(engine: Engine, work: string): Promise<ScaleFigures> {
  heading(`${engine}: ${fmt.int(PACKAGES)} packages and customers against 100`);
  const schemas: (string | null)[] = [];
  const servers: ChildServer[] = [];
  try {
    const small = await seeded(engine, work, 'small', 100);
    schemas.push(small.schema);
    const large = await seeded(engine, work, 'large', PACKAGES);
    schemas.push(large.schema);
    const a = large.audiences;
    item(
      'seeded',
      `${fmt.int(PACKAGES)} packages (${TAGS.length} tags each), ${fmt.int(PACKAGES)} customers ` +
        `on ${PLANS} plans of ${PLAN_SIZE} packages, ${fmt.int(ROTATING + FRESH + OWN)} tokens ` +
        `in ${fmt.s(large.seedSeconds)}`,
    );
    const opts = { seconds: SECONDS, rounds: ROUNDS, connections: CONNECTIONS, work };
    const flat = await flatness(
      { name: 'small', serve: small.serve, requests: oneTokenRequests(small.audiences) },
      { name: 'large', serve: large.serve, requests: oneTokenRequests(a) },
      { ...opts, pairs: PAIRS },
    );
    const largeServer = await large.serve();
    servers.push(largeServer);
    const url = largeServer.url;
    const rotation = Array.from({ length: ROTATING }, (_, t) => planRequest(a, t));
    const warmErrors = await touchAll(url, rotation);
    if (warmErrors > 0) throw new Error(`${warmErrors} of the rotating tokens were refused`);
    const rotating = await sideBySide(
      [
        { name: 'one', url, requests: oneTokenRequests(a) },
        { name: 'rotation', url, requests: rotation },
      ],
      opts,
    );
    const rss = largeServer.memory()?.rss ?? null;
    const fresh = Array.from({ length: FRESH }, (_, k) => planRequest(a, ROTATING + k));
    const freshToken = await firstAnswers(url, fresh);
    const own = a.own.map(({ name, secret }): Request => [`/p2/${name}.json`, basicAuth(secret)]);
    const newAudience = await firstAnswers(url, own);
    return {
      engine,
      packages: PACKAGES,
      seedSeconds: large.seedSeconds,
      freshToken,
      newAudience,
      rotation: rotating.median.get('rotation')!,
      oneToken: rotating.median.get('one')!,
      rss,
      small: flat.median.get('small')!,
      large: flat.median.get('large')!,
      rotationRatio: medianRatio(rotating.rounds, 'rotation', 'one'),
      drift: medianRatio(flat.rounds, 'large', 'small') - 1,
      driftRounds: roundRatios(flat.rounds, 'large', 'small').map((r) => r - 1),
      rounds: ROUNDS,
      pairs: PAIRS,
    };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    const names = schemas.filter((s): s is string => s !== null);
    if (names.length > 0) {
      const client = new pg.Client({ connectionString: DATABASE_URL });
      await client.connect();
      for (const name of names) await client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
      await client.end();
    }
  }
}

export async function benchScale(): Promise<ScaleFigures[]> {
  ensureYardstickTools();
  const engines = (process.env.BENCH_SCALE_DATABASES ?? 'sqlite,postgres')
    .split(',')
    .map((e) => e.trim()) as Engine[];
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-scale-'));
  const figures: ScaleFigures[] = [];
  try {
    for (const engine of engines) {
      const f = await scaleOn(engine, work);
      figures.push(f);
      reportScale(f);
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return figures;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  benchScale().catch((err: unknown) => {
    console.error('\nbench failed:', err);
    process.exitCode = 1;
  });
}
