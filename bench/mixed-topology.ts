/**
 * The two-node topology of issue 15 in real processes, as test/topology.test.ts builds it: two
 * `packyard serve` web nodes (WORKER=off, WEB_CONCURRENCY=1) and one `packyard worker` on a fresh
 * PostgreSQL schema, Redis under a key prefix of their own, and s3rver (in its own process) for
 * archives. `close()` stops every process and drops the schema, the Redis keys and the temp dirs.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import { ChildServer, freePort } from './processes.js';

export const MIXED_DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const MIXED_REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const BUCKET = 'bucket';

export interface Topology {
  adminToken: string;
  webs: ChildServer[];
  worker: ChildServer;
  s3: ChildServer;
  schema: string;
  /** Every process of the topology, for CPU figures. */
  processes(): ChildServer[];
  close(): Promise<void>;
}

/** Starts s3rver, then the first web node (it migrates), then the second and the worker. */
export async function startTopology(): Promise<Topology> {
  const run = crypto.randomBytes(4).toString('hex');
  const schema = `bench_mixed_${run}`;
  const redisPrefix = `packyard-bench-mixed:${run}:`;
  const adminToken = crypto.randomBytes(24).toString('hex');
  const dirs: string[] = [];
  const tempDir = (label: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `packyard-mixed-${label}-`));
    dirs.push(dir);
    return dir;
  };
  const started: ChildServer[] = [];
  const close = async () => {
    await Promise.all(started.map((child) => child.stop()));
    await dropSchema(schema);
    await dropRedisKeys(redisPrefix);
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const s3Port = await freePort();
    const s3 = await ChildServer.start({
      label: 's3rver',
      port: s3Port,
      nodeArgs: ['--import', 'tsx', 'bench/mixed-s3.ts'],
      env: { S3_PORT: String(s3Port), S3_DIR: tempDir('s3'), S3_BUCKET: BUCKET },
      // Any HTTP answer: it listens.
      ready: async (url) => (await fetch(url)).status > 0,
    });
    started.push(s3);
    const env: Record<string, string> = {
      LOG_LEVEL: 'warn',
      ADMIN_TOKEN: adminToken,
      DATABASE_URL: MIXED_DATABASE_URL,
      DATABASE_SCHEMA: schema,
      REDIS_URL: MIXED_REDIS_URL,
      REDIS_KEY_PREFIX: redisPrefix,
      STORAGE_URL: `s3://${BUCKET}/mixed-${run}/`,
      S3_ENDPOINT: s3.url,
      S3_FORCE_PATH_STYLE: 'on',
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      WORKER: 'off',
      WEB_CONCURRENCY: '1',
      // The limits stay on (their Redis round trips are part of the load), far above 60,000.
      RATE_LIMIT_COMPOSER_PER_MINUTE: '100000000',
      RATE_LIMIT_ADMIN_PER_MINUTE: '100000000',
      PROXY_UPSTREAM_URL: 'off',
      BASE_URL: 'http://packyard.test',
    };
    const start = async (label: string, command: 'serve' | 'worker') => {
      const port = await freePort();
      const child = await ChildServer.start({
        label,
        port,
        nodeArgs: ['bin/packyard.js', command],
        env: {
          ...env,
          DATA_DIR: tempDir(label),
          HOST: '127.0.0.1',
          PORT: String(port),
          WORKER_METRICS_PORT: command === 'worker' ? String(port) : '0',
        },
        ready: async (url) => (await fetch(`${url}/readyz`)).ok,
        timeoutMs: 90_000,
      });
      started.push(child);
      return child;
    };
    const webA = await start('web-a', 'serve');
    const [webB, worker] = await Promise.all([start('web-b', 'serve'), start('worker', 'worker')]);
    return {
      adminToken,
      webs: [webA, webB],
      worker,
      s3,
      schema,
      processes: () => [webA, webB, worker, s3],
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

async function dropSchema(schema: string): Promise<void> {
  const db = new pg.Client({ connectionString: MIXED_DATABASE_URL });
  await db.connect();
  try {
    await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await db.end();
  }
}

async function dropRedisKeys(prefix: string): Promise<void> {
  const redis = new Redis(MIXED_REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
