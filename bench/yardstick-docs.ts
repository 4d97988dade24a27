import http from 'node:http';
import { seedCatalogue } from './catalogue.js';
import { AdminApi, basicAuth, startPackyard } from './packyard.js';
import type { ChildServer } from './processes.js';
import { fmt, item } from './report.js';
import type { Settings } from './settings.js';
import { seedLargePackages } from './yardstick-seed.js';

/** Composer's (curl's) Accept-Encoding. */
export const ACCEPT_GZIP = 'gzip';

/** One set of p2 documents the yardstick loads in turn: both encodings of each, as served. */
export interface DocumentSet {
  name: string;
  paths: string[];
  /** path -> the identity body. */
  bodies: Map<string, Buffer>;
  /** path -> Packyard's gzip body. */
  gzipBodies: Map<string, Buffer>;
}

export interface YardstickCatalogue {
  dataDir: string;
  adminToken: string;
  token: string;
  headers: Record<string, string>;
  sets: DocumentSet[];
  /** The single-process server the documents were read from (still running). */
  server: ChildServer;
}

/** A GET's status, headers and raw body bytes (fetch would decompress a gzip answer). */
export function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** Reads every path in both encodings, checking that the gzip answer is gzip. */
export async function readSet(
  baseUrl: string,
  name: string,
  paths: string[],
  headers: Record<string, string>,
): Promise<DocumentSet> {
  const bodies = new Map<string, Buffer>();
  const gzipBodies = new Map<string, Buffer>();
  for (const p of paths) {
    const plain = await rawGet(baseUrl + p, headers);
    const gzip = await rawGet(baseUrl + p, { ...headers, 'accept-encoding': ACCEPT_GZIP });
    if (plain.status !== 200 || gzip.status !== 200) {
      throw new Error(`GET ${p} -> ${plain.status} / ${gzip.status} with gzip`);
    }
    if (plain.headers['content-encoding'] || gzip.headers['content-encoding'] !== 'gzip') {
      throw new Error(`GET ${p}: content-encoding ${String(gzip.headers['content-encoding'])}`);
    }
    bodies.set(p, plain.body);
    gzipBodies.set(p, gzip.body);
  }
  return { name, paths, bodies, gzipBodies };
}

const mean = (bodies: Map<string, Buffer>) =>
  [...bodies.values()].reduce((n, b) => n + b.length, 0) / Math.max(1, bodies.size);

/** "26,652 bytes" or "1,980-2,004 bytes" over a map of bodies. */
export function sizes(bodies: Map<string, Buffer>): string {
  const lengths = [...bodies.values()].map((b) => b.length);
  const [min, max] = [Math.min(...lengths), Math.max(...lengths)];
  return `${min === max ? fmt.int(min) : `${fmt.int(min)}-${fmt.int(max)}`} bytes`;
}

/**
 * The yardstick's catalogue: 100 packages of seven versions (a `^1.0` grant admits four in each
 * p2 document) and LARGE packages of 201 versions (the grant admits 50), one customer granted 50
 * of the first and every large one, and its token. Leaves a one-process server running on it.
 */
export async function prepareYardstick(
  s: Settings,
  dataDir: string,
  adminToken: string,
  large = Number(process.env.BENCH_YARDSTICK_LARGE) || 10,
): Promise<YardstickCatalogue> {
  const catalogue = await seedCatalogue({
    dataDir,
    adminToken,
    count: s.smallCatalogue,
    grants: s.grants,
  });
  const longLived = await seedLargePackages({ dataDir, adminToken, count: large });
  const server = await startPackyard({ dataDir, adminToken });
  const p2 = (names: string[]) => names.map((n) => `/p2/${n}.json`);
  let token: string;
  let sets: DocumentSet[];
  const headers: Record<string, string> = {};
  try {
    const api = new AdminApi(server.url, adminToken);
    token = await api.customerWithToken([...catalogue.granted, ...longLived], s.constraint);
    headers.authorization = basicAuth(token);
    sets = [
      await readSet(server.url, 'small', p2(catalogue.granted), headers),
      await readSet(server.url, '50-version', p2(longLived), headers),
    ];
  } catch (err) {
    await server.stop();
    throw err;
  }
  for (const set of sets) {
    item(
      `${set.name} documents (${set.paths.length})`,
      `${sizes(set.bodies)}, gzip ${sizes(set.gzipBodies)} (mean ${fmt.int(mean(set.gzipBodies))})`,
    );
  }
  return { dataDir, adminToken, token, headers, sets, server };
}
