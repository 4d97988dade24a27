import os from 'node:os';
import path from 'node:path';
import { measure } from './load.js';
import { startPackyard } from './packyard.js';
import type { ChildServer } from './processes.js';
import { startReference } from './reference-server.js';
import { fmt, heading, item } from './report.js';
import { ACCEPT_GZIP, rawGet, readSet, sizes } from './yardstick-docs.js';
import type { DocumentSet } from './yardstick-docs.js';
import { treeRss } from './yardstick-proc.js';
import { runWrk, startNginx } from './yardstick.js';
import type { WrkResult } from './yardstick.js';

/** The p2 load of one served catalogue, as the yardstick needs it. */
export interface YardstickSource {
  dataDir: string;
  server: ChildServer;
  adminToken: string;
  paths: string[];
  headers: Record<string, string>;
  bodies: Map<string, Buffer>;
  /** More document sets of the same catalogue and token (the 50-version documents). */
  more?: DocumentSet[];
}

/** One document set in one encoding: nginx, the floor and Packyard, medians of their rounds. */
export interface YardstickRun {
  set: string;
  encoding: 'identity' | 'gzip';
  /** Body sizes as served: Packyard's (the floor sends the same), nginx's `gzip -9` copies. */
  bytes: { packyard: string; nginx: string };
  nginx: WrkResult;
  floor: WrkResult;
  packyard: WrkResult;
  /** Packyard / nginx req/s of each round. */
  ratios: number[];
  /** Each server's CPU time per answer (its process tree, user and kernel), median of rounds. */
  cpuUs: { nginx: number; packyard: number; floor: number };
}

export interface Yardstick {
  /** The first set's identity run (the figures `npm run bench` summarizes). */
  nginx: WrkResult;
  floor: WrkResult;
  packyard: WrkResult;
  processes: number;
  /** Resident memory of the largest serving process, and of all of them with the primary. */
  rss: { total: number; largest: number };
  runs: YardstickRun[];
}

export const YARDSTICK_CONNECTIONS = 64;
/** Rounds of nginx, Packyard and the floor in turn (BENCH_YARDSTICK_ROUNDS, default 3). */
const YARDSTICK_ROUNDS = Number(process.env.BENCH_YARDSTICK_ROUNDS) || 3;

/** The round with the median throughput. */
function median(results: WrkResult[]): WrkResult {
  const sorted = [...results].sort((a, b) => a.rps - b.rps);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function medianCpu(results: WrkResult[]): number {
  const sorted = results.map((r) => r.cpuUs ?? Number.NaN).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export function wrkLine(r: WrkResult): string {
  const errors = r.errors ? `, ${fmt.int(r.errors)} errors` : '';
  const cpu =
    r.cpuUs === undefined
      ? ''
      : `, CPU ${r.cpuUs.toFixed(0)} µs/answer (kernel ${(r.sysUs ?? 0).toFixed(0)})`;
  const stolen = r.stolen >= 0.01 ? `, ${(r.stolen * 100).toFixed(0)} % of the machine stolen` : '';
  return `${fmt.int(r.rps)} req/s, p50 ${fmt.ms(r.p50)}, p99 ${fmt.ms(r.p99)}${cpu}${errors}${stolen}`;
}

/** Both servers answer gzip when asked, and identity when not; returns nginx's gzip sizes. */
async function checkEncodings(set: DocumentSet, urls: string[], headers: Record<string, string>) {
  const nginxGzip = new Map<string, Buffer>();
  for (const url of urls) {
    for (const p of set.paths) {
      const gzip = await rawGet(url + p, { ...headers, 'accept-encoding': ACCEPT_GZIP });
      const plain = await rawGet(url + p, headers);
      const encodings = `${String(plain.headers['content-encoding'])}/${String(gzip.headers['content-encoding'])}`;
      if (gzip.status !== 200 || plain.status !== 200 || encodings !== 'undefined/gzip') {
        throw new Error(`${url}${p}: ${plain.status}/${gzip.status}, encodings ${encodings}`);
      }
      if (url === urls[0]) nginxGzip.set(p, gzip.body);
    }
  }
  return nginxGzip;
}

/**
 * nginx, the bare node:http floor and Packyard at WEB_CONCURRENCY (one process per core), one
 * after the other on the same p2 bytes and token, all loaded by wrk with 64 connections: every
 * document set, first as is, then with `Accept-Encoding: gzip` (nginx's gzip_static sending the
 * `gzip -9` copy, the floor Packyard's gzip bytes). Stops `source.server` (the cluster takes its
 * DATA_DIR).
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
  const main = await readSet(source.server.url, 'small', source.paths, source.headers);
  const sets = [main, ...(source.more ?? [])];
  await source.server.stop();
  const processes = Number(process.env.BENCH_WEB_CONCURRENCY) || os.availableParallelism();
  const identity = new Map(sets.flatMap((set) => [...set.bodies]));
  const gzipped = new Map(sets.flatMap((set) => [...set.gzipBodies]));
  const started: { stop(): Promise<void> }[] = [];
  try {
    const nginx = await startNginx(work, identity, token);
    started.push(nginx);
    const floors = {
      identity: await startReference('node', identity, path.join(work, 'ys-bodies.json')),
      gzip: await startReference('node', gzipped, path.join(work, 'ys-gzip.json'), {
        'content-encoding': 'gzip',
        vary: 'Accept-Encoding',
      }),
    };
    started.push(floors.identity, floors.gzip);
    const cluster = await startPackyard({
      dataDir: source.dataDir,
      adminToken: source.adminToken,
      webConcurrency: processes,
      cpuProfDir: profileDir,
    });
    started.push(cluster);
    // Every process answers once before the measured runs, so each has its cache warm.
    await measure({
      baseUrl: cluster.url,
      paths: sets.flatMap((set) => set.paths),
      headers: source.headers,
      connections: YARDSTICK_CONNECTIONS,
      seconds: Math.min(2, seconds),
    });
    const runs: YardstickRun[] = [];
    // BENCH_YARDSTICK_REVERSE=1 measures the sets and encodings in the opposite order.
    const reverse = <T>(xs: T[]) =>
      process.env.BENCH_YARDSTICK_REVERSE === '1' ? [...xs].reverse() : xs;
    for (const set of reverse(sets)) {
      const nginxGzip = await checkEncodings(set, [nginx.url, cluster.url], source.headers);
      for (const encoding of reverse(['identity', 'gzip'] as const)) {
        const headers =
          encoding === 'gzip'
            ? { ...source.headers, 'accept-encoding': ACCEPT_GZIP }
            : source.headers;
        const floor = floors[encoding];
        const targets = [
          ['nginx', nginx.url, nginx.pid],
          ['packyard', cluster.url, cluster.pid],
          ['floor', floor.url, floor.pid],
        ] as const;
        const load = (url: string, pid: number, s = seconds) =>
          runWrk({
            url,
            paths: set.paths,
            headers,
            seconds: s,
            connections: YARDSTICK_CONNECTIONS,
            work,
            pid,
          });
        for (const [, url, pid] of targets) await load(url, pid, Math.min(2, seconds)); // warm-up
        // Side by side: nginx and Packyard take turns, in alternating order, and each figure is
        // the median of its rounds, so the machine's drift over the run favours neither.
        const rounds = {
          nginx: [] as WrkResult[],
          floor: [] as WrkResult[],
          packyard: [] as WrkResult[],
        };
        for (let round = 0; round < YARDSTICK_ROUNDS; round++) {
          const order = round % 2 === 0 ? targets : [...targets].reverse();
          for (const [name, url, pid] of order) rounds[name].push(await load(url, pid));
        }
        const run: YardstickRun = {
          set: set.name,
          encoding,
          bytes:
            encoding === 'gzip'
              ? { packyard: sizes(set.gzipBodies), nginx: sizes(nginxGzip) }
              : { packyard: sizes(set.bodies), nginx: sizes(set.bodies) },
          nginx: median(rounds.nginx),
          floor: median(rounds.floor),
          packyard: median(rounds.packyard),
          ratios: rounds.packyard.map((p, i) => p.rps / rounds.nginx[i]!.rps),
          cpuUs: {
            nginx: medianCpu(rounds.nginx),
            packyard: medianCpu(rounds.packyard),
            floor: medianCpu(rounds.floor),
          },
        };
        runs.push(run);
        report(run, processes);
      }
    }
    const rss = treeRss(cluster.pid);
    heading('the yardstick, summed up');
    item(
      'Packyard memory (VmRSS)',
      `largest process ${fmt.mb(rss.largest)}, all ${processes} with the primary ${fmt.mb(rss.total)}`,
    );
    for (const r of runs) {
      item(
        `${r.set}, ${r.encoding}: Packyard / nginx`,
        `${fmt.ratio(r.packyard.rps / r.nginx.rps)} (rounds ${r.ratios.map(fmt.ratio).join(', ')}); ` +
          `CPU per answer ${cpuRatio(r)}x nginx's`,
      );
    }
    item(
      'load average (1, 5, 15 min)',
      os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(', '),
    );
    const first = runs[0]!;
    return {
      nginx: first.nginx,
      floor: first.floor,
      packyard: first.packyard,
      processes,
      rss,
      runs,
    };
  } finally {
    await Promise.all(started.map((s) => s.stop()));
  }
}

/** Packyard's CPU time per answer over nginx's (both process trees, user and kernel). */
const cpuRatio = (r: YardstickRun) => fmt.ratio(r.cpuUs.packyard / r.cpuUs.nginx);

function report(run: YardstickRun, processes: number): void {
  heading(
    `${run.set} documents, ${run.encoding}: Packyard ${run.bytes.packyard}, nginx ${run.bytes.nginx}`,
  );
  item(`nginx: static files, auth_basic {SHA}, sendfile, workers = cores`, wrkLine(run.nginx));
  item('floor: bare node:http, one process', wrkLine(run.floor));
  item(`Packyard, WEB_CONCURRENCY=${processes}, customer's cached p2`, wrkLine(run.packyard));
  item(
    `ratio Packyard / nginx (median of ${YARDSTICK_ROUNDS} rounds)`,
    `${fmt.ratio(run.packyard.rps / run.nginx.rps)} req/s, ${cpuRatio(run)} CPU per answer ` +
      `(${run.cpuUs.packyard.toFixed(1)} against ${run.cpuUs.nginx.toFixed(1)} µs; ` +
      `floor ${run.cpuUs.floor.toFixed(1)} µs)`,
  );
  item('ratio per round', run.ratios.map(fmt.ratio).join(', '));
  item('load average (1 min)', os.loadavg()[0]!.toFixed(1));
}
