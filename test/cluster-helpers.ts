import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { ChildServer, freePort } from '../bench/processes.js';
import { ADMIN_TOKEN, TEST_DATABASE, TEST_DATABASE_URL, waitFor } from './helpers.js';

/** One answer as the cluster tests read it. */
export interface Answer {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

/**
 * One request on a connection of its own (`agent: false`), so the cluster's primary hands it to
 * its next serving process: sequential fresh requests alternate between the processes.
 */
export function fresh(
  url: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: Buffer,
  timeoutMs = 10_000,
): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          headers: res.headers,
        }),
      );
    });
    req.on('error', reject);
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer from ${method} ${url}`)));
    req.end(body);
  });
}

/**
 * The serving processes the primary forked: its node children only (tsx may also run an esbuild
 * service as a child of the primary when its transform cache is cold, as on a fresh clone).
 */
export const childrenOf = (pid: number): number[] =>
  // `ps` exits 1 when it lists nothing (a moment with no child at all).
  execFileSync('sh', ['-c', `ps -o pid=,comm= --ppid ${pid} || true`], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, comm]) => comm === 'node')
    .map(([child]) => Number(child));

/** JSON answer of an API call (null for an empty body, as 204). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answers loosely
export type Json = any;

/** Calls `/api/v1…` with fixed headers; answers the JSON, throws with the answer on 4xx/5xx. */
export type Api = (method: string, url: string, payload?: unknown) => Promise<Json>;

/**
 * An API client on `origin` with `headers` (a bearer token, a tenant's `host`). Each call is a
 * fresh connection. A Buffer payload is sent as `application/zip` (artifact uploads), anything
 * else as JSON.
 */
export function apiClient(origin: string, headers: Record<string, string>): Api {
  return async (method, url, payload) => {
    const zip = Buffer.isBuffer(payload);
    const res = await fresh(
      `${origin}/api/v1${url}`,
      { ...headers, 'content-type': zip ? 'application/zip' : 'application/json' },
      method,
      payload === undefined ? undefined : zip ? payload : Buffer.from(JSON.stringify(payload)),
    );
    if (res.status >= 400) throw new Error(`${method} ${url} -> ${res.status} ${res.body}`);
    return res.body ? JSON.parse(res.body) : null;
  };
}

export interface Serve {
  server: ChildServer;
  /** `http://127.0.0.1:<port>`: where to connect (Cloud requests add their own `host`). */
  url: string;
  port: number;
  dataDir: string;
  /** The PostgreSQL schema of this server (TEST_DATABASE=postgres), dropped by stop(). */
  schema: string | null;
  /** How many serving processes it runs. */
  concurrency: number;
  /** The root admin API (ADMIN_TOKEN), one fresh connection per call. */
  api: Api;
  /** Stops the server, then removes its DATA_DIR and drops its schema. */
  stop(): Promise<void>;
}

/**
 * `packyard serve` with WEB_CONCURRENCY=`concurrency` (default 2) on its own data: a fresh
 * DATA_DIR on SQLite, and with TEST_DATABASE=postgres a fresh DATABASE_SCHEMA in
 * TEST_DATABASE_URL. Answers once every serving process listens.
 *
 * Defaults that `env` may override: no upstream proxy (nothing reaches packagist.org), and no
 * rate limit or failed-authentication limit (tests read revoked tokens many times on purpose).
 * With `BASE_DOMAIN` in `env` (Cloud), BASE_URL defaults to `http://<BASE_DOMAIN>:<port>`.
 */
export async function startServe({
  label,
  env = {},
  concurrency = 2,
}: {
  label: string;
  env?: Record<string, string>;
  concurrency?: number;
}): Promise<Serve> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `packyard-${label}-`));
  const schema = TEST_DATABASE === 'postgres' ? `t_${crypto.randomBytes(6).toString('hex')}` : null;
  const dropData = async () => {
    if (schema) await dropSchema(schema);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const port = await freePort();
  let server: ChildServer;
  try {
    server = await ChildServer.start({
      label,
      port,
      nodeArgs: ['bin/packyard.js', 'serve'],
      env: {
        DATA_DIR: dataDir,
        PORT: String(port),
        // vitest sets BASE_URL for Vite; the server must get its own.
        BASE_URL: env.BASE_DOMAIN
          ? `http://${env.BASE_DOMAIN}:${port}`
          : `http://127.0.0.1:${port}`,
        WEB_CONCURRENCY: String(concurrency),
        ADMIN_TOKEN,
        LOG_LEVEL: 'warn',
        PROXY_UPSTREAM_URL: 'off',
        AUTH_FAILURE_LIMIT: '0',
        RATE_LIMIT_ADMIN_PER_MINUTE: '0',
        RATE_LIMIT_COMPOSER_PER_MINUTE: '0',
        ...(schema ? { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema } : {}),
        ...env,
      },
      ready: async (url) => (await fetch(`${url}/readyz`)).ok,
      timeoutMs: 90_000,
    });
  } catch (err) {
    await dropData();
    throw err;
  }
  const stop = async () => {
    await server.stop();
    await dropData();
  };
  try {
    if (concurrency > 1) {
      // The primary prints its banner once every process listens: from then on, fresh
      // connections alternate between all of them.
      await waitFor(
        async () => ({
          children: childrenOf(server.pid).length,
          banner: server.recentOutput.includes('Packyard is running at'),
        }),
        (s) => s.children === concurrency && s.banner,
        { timeoutMs: 60_000, intervalMs: 100 },
      );
    }
  } catch (err) {
    const output = server.recentOutput;
    await stop();
    throw new Error(`${(err as Error).message}; output:\n${output}`);
  }
  const url = `http://127.0.0.1:${port}`;
  return {
    server,
    url,
    port,
    dataDir,
    schema,
    concurrency,
    api: apiClient(url, { authorization: `Bearer ${ADMIN_TOKEN}` }),
    stop,
  };
}

async function dropSchema(schema: string): Promise<void> {
  const pg = await import('pg');
  const client = new pg.default.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
