import os from 'node:os';
import path from 'node:path';
import { measure } from './load.js';
import { startPackyard } from './packyard.js';
import type { ChildServer } from './processes.js';
import { startReference } from './reference-server.js';
import { fmt, item } from './report.js';
import { runWrk, startNginx, treeRss } from './yardstick.js';
import type { WrkResult } from './yardstick.js';

/** The p2 load of one served catalogue, as the yardstick needs it. */
export interface YardstickSource {
  dataDir: string;
  server: ChildServer;
  adminToken: string;
  paths: string[];
  headers: Record<string, string>;
  bodies: Map<string, Buffer>;
}

export interface Yardstick {
  nginx: WrkResult;
  floor: WrkResult;
  packyard: WrkResult;
  processes: number;
  /** Resident memory of the largest serving process, and of all of them with the primary. */
  rss: { total: number; largest: number };
}

export const YARDSTICK_CONNECTIONS = 64;
/** Rounds of nginx, Packyard and the floor in turn (BENCH_YARDSTICK_ROUNDS, default 3). */
const YARDSTICK_ROUNDS = Number(process.env.BENCH_YARDSTICK_ROUNDS) || 3;

/** The round with the median throughput. */
function median(results: WrkResult[]): WrkResult {
  const sorted = [...results].sort((a, b) => a.rps - b.rps);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export function wrkLine(r: WrkResult): string {
  const errors = r.errors ? `, ${fmt.int(r.errors)} errors` : '';
  return `${fmt.int(r.rps)} req/s, p50 ${fmt.ms(r.p50)}, p99 ${fmt.ms(r.p99)}${errors}`;
}

/**
 * nginx, the bare node:http floor and Packyard at WEB_CONCURRENCY (one process per core), one
 * after the other on the same p2 bytes and token, all loaded by wrk with 64 connections.
 * Stops `source.server` (the cluster takes its DATA_DIR).
 */
export async function benchYardstick(
  source: YardstickSource,
  work: string,
  seconds: number,
  /** Write the cluster's processes' V8 CPU profiles here. */
  profileDir: string | null = null,
): Promise<Yardstick> {
  const token = Buffer.from(source.headers.authorization!.replace(/^Basic /, ''), 'base64')
    .toString('utf8')
    .replace(/^token:/, '');
  const load = (url: string) =>
    runWrk({
      url,
      paths: source.paths,
      headers: source.headers,
      seconds,
      connections: YARDSTICK_CONNECTIONS,
      work,
    });

  await source.server.stop();
  const processes = Number(process.env.BENCH_WEB_CONCURRENCY) || os.availableParallelism();
  const nginxServer = await startNginx(work, source.bodies, token);
  const reference = await startReference('node', source.bodies, path.join(work, 'ys-bodies.json'));
  const cluster = await startPackyard({
    dataDir: source.dataDir,
    adminToken: source.adminToken,
    webConcurrency: processes,
    cpuProfDir: profileDir,
  }).catch(async (err: unknown) => {
    await Promise.all([nginxServer.stop(), reference.stop()]);
    throw err;
  });
  try {
    // Every process answers once before the measured runs, so each has its cache warm.
    await measure({
      baseUrl: cluster.url,
      paths: source.paths,
      headers: source.headers,
      connections: YARDSTICK_CONNECTIONS,
      seconds: Math.min(2, seconds),
    });
    for (const url of [nginxServer.url, reference.url]) await load(url);
    // Side by side: nginx and Packyard take turns, in alternating order, and each figure is the
    // median of its rounds, so the machine's drift over the run favours neither.
    const rounds: { nginx: WrkResult[]; floor: WrkResult[]; packyard: WrkResult[] } = {
      nginx: [],
      floor: [],
      packyard: [],
    };
    for (let round = 0; round < YARDSTICK_ROUNDS; round++) {
      const order = [
        ['nginx', nginxServer.url],
        ['packyard', cluster.url],
        ['floor', reference.url],
      ] as const;
      for (const [name, url] of round % 2 === 0 ? order : [...order].reverse()) {
        rounds[name].push(await load(url));
      }
    }
    const nginx = median(rounds.nginx);
    const floor = median(rounds.floor);
    const packyard = median(rounds.packyard);
    const rss = treeRss(cluster.pid);
    item(
      `nginx: static files, auth_basic {SHA}, sendfile, workers = cores`,
      `${wrkLine(nginx)} (median of ${YARDSTICK_ROUNDS} rounds)`,
    );
    item('floor: bare node:http, one process', wrkLine(floor));
    item(`Packyard, WEB_CONCURRENCY=${processes}, customer's cached p2`, wrkLine(packyard));
    item(
      'Packyard memory (VmRSS)',
      `largest process ${fmt.mb(rss.largest)}, all ${processes} with the primary ${fmt.mb(rss.total)}`,
    );
    item('ratio Packyard / nginx (req/s)', fmt.ratio(packyard.rps / nginx.rps));
    item(
      'ratio per round',
      rounds.packyard.map((p, i) => fmt.ratio(p.rps / rounds.nginx[i]!.rps)).join(', '),
    );
    return { nginx, floor, packyard, processes, rss };
  } finally {
    await Promise.all([cluster.stop(), nginxServer.stop(), reference.stop()]);
  }
}
