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

  const nginxServer = await startNginx(work, source.bodies, token);
  let nginx: WrkResult;
  try {
    await load(nginxServer.url);
    nginx = await load(nginxServer.url);
  } finally {
    await nginxServer.stop();
  }
  item('nginx: static files, auth_basic {SHA}, sendfile, workers = cores', wrkLine(nginx));

  const reference = await startReference('node', source.bodies, path.join(work, 'ys-bodies.json'));
  let floor: WrkResult;
  try {
    await load(reference.url);
    floor = await load(reference.url);
  } finally {
    await reference.stop();
  }
  item('floor: bare node:http, one process', wrkLine(floor));

  await source.server.stop();
  const processes = os.availableParallelism();
  const cluster = await startPackyard({
    dataDir: source.dataDir,
    adminToken: source.adminToken,
    webConcurrency: processes,
    cpuProfDir: profileDir,
  });
  try {
    // Every process answers once before the measured run, so each has its cache warm.
    await measure({
      baseUrl: cluster.url,
      paths: source.paths,
      headers: source.headers,
      connections: YARDSTICK_CONNECTIONS,
      seconds: Math.min(2, seconds),
    });
    const packyard = await load(cluster.url);
    const rss = treeRss(cluster.pid);
    item(`Packyard, WEB_CONCURRENCY=${processes}, customer's cached p2`, wrkLine(packyard));
    item(
      'Packyard memory (VmRSS)',
      `largest process ${fmt.mb(rss.largest)}, all ${processes} with the primary ${fmt.mb(rss.total)}`,
    );
    item('ratio Packyard / nginx (req/s)', fmt.ratio(packyard.rps / nginx.rps));
    return { nginx, floor, packyard, processes, rss };
  } finally {
    await cluster.stop();
  }
}
