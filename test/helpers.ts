import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { loadConfig } from '../src/config/index.js';
import type { Config } from '../src/config/index.js';
import { buildApp } from '../src/app.js';
import type { App } from '../src/http/app-types.js';
import { openRuntime } from '../src/runtime.js';
import type { Runtime } from '../src/runtime.js';
import type { Db } from '../src/infra/db/connection.js';
import { unscoped } from '../src/infra/db/tenant-scope.js';

/** Which database the suite runs on: TEST_DATABASE=postgres runs it on PostgreSQL. */
export const TEST_DATABASE = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';
export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** The Redis the tests that need one use (scripts/test.sh starts one when none is reachable). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export const ADMIN_TOKEN = 'test-root-admin-token-0123456789';

export interface TestApp {
  app: App;
  runtime: Runtime;
  config: Readonly<Config>;
  dataDir: string;
  /** Headers for the root admin token. */
  admin: { authorization: string };
  /** The database without the tenant guard, for tests that set up or inspect rows directly. */
  db: Db;
  close(): Promise<void>;
}

/**
 * A fresh app on its own data: a temp DATA_DIR, and on PostgreSQL its own schema, so test files
 * running in parallel never see each other's rows.
 */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-test-'));
  const dbEnv: Record<string, string> =
    TEST_DATABASE === 'postgres'
      ? {
          DATABASE_URL: TEST_DATABASE_URL,
          DATABASE_SCHEMA: `t_${crypto.randomBytes(6).toString('hex')}`,
        }
      : {};
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_TOKEN,
    BASE_URL: 'http://packyard.test',
    WORKER: 'on',
    // No test reaches packagist.org: proxy tests point PROXY_UPSTREAM_URL at a local fake.
    PROXY_UPSTREAM_URL: 'off',
    ...dbEnv,
    // The Cloud edition needs its domain, and the test git hosts live on loopback addresses.
    ...(env.EDITION === 'cloud'
      ? { BASE_DOMAIN: 'packyard.test', BLOCK_PRIVATE_GIT_HOSTS: 'off' }
      : {}),
    ...env,
  });
  const runtime = await openRuntime(config);
  const app = await buildApp({ services: runtime.services });
  await app.ready();
  if (config.worker) {
    runtime.services.worker.start();
    await startupCleanupDone(runtime);
  }
  return {
    app,
    runtime,
    config,
    dataDir,
    admin: { authorization: `Bearer ${ADMIN_TOKEN}` },
    db: unscoped(runtime.services.deps.db, 'tests inspect rows of any tenant'),
    close: async () => {
      await app.close();
      await runtime.close();
      if (TEST_DATABASE === 'postgres' && config.databaseSchema) {
        const pg = await import('pg');
        const client = new pg.default.Client({ connectionString: TEST_DATABASE_URL });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${config.databaseSchema}" CASCADE`);
        await client.end();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A worker queues the day's cleanup as it starts, and cleanup deletes expired tokens and
 * authorization states; a test that backdates one must not race it, so apps start after it ran.
 */
async function startupCleanupDone(runtime: TestApp['runtime']): Promise<void> {
  await waitFor(
    () =>
      unscoped(runtime.services.deps.db, 'tests inspect rows of any tenant')
        .selectFrom('tasks')
        .select('status')
        .where('type', '=', 'cleanup')
        .execute(),
    (rows) => rows.length > 0 && rows.every((r) => r.status === 'done' || r.status === 'failed'),
    { intervalMs: 10 },
  );
}

/** Polls until the condition holds; fails with the last value after the timeout. */
export async function waitFor<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs = 20_000, intervalMs = 50 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(`Timed out waiting; last value: ${JSON.stringify(value)}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export function basicAuth(token: string): string {
  return `Basic ${Buffer.from(`token:${token}`).toString('base64')}`;
}

/** A GraphQL answer as the tests read it. */
export interface GqlAnswer {
  data: Record<string, unknown> | null;
  errors?: {
    message: string;
    extensions: { code: string; details?: { field: string; message?: string }[] };
  }[];
}

/** POSTs one GraphQL operation (as the root admin unless `headers` say otherwise). */
export async function graphql(
  t: TestApp,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = t.admin,
): Promise<GqlAnswer & { status: number }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/graphql',
    headers,
    payload: { query, variables },
  });
  return { status: res.statusCode, ...res.json<GqlAnswer>() };
}

/** The same, answering only the GraphQL body. */
export async function graphqlBody(
  t: TestApp,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = t.admin,
): Promise<GqlAnswer> {
  const { status: _status, ...body } = await graphql(t, query, variables, headers);
  return body;
}

/**
 * A tenant of a Cloud test app (BASE_DOMAIN packyard.test), made directly in the database until
 * the platform API creates them: its host, and headers with an owner token of its own.
 */
export async function cloudTenant(
  t: TestApp,
  subdomain: string,
  status: 'active' | 'suspended' | 'deleted' = 'active',
): Promise<{ id: string; host: string; admin: { host: string; authorization: string } }> {
  const id = `tenant-${subdomain}`;
  const now = new Date().toISOString();
  await t.db
    .insertInto('tenants')
    .values({
      id,
      name: subdomain,
      subdomain,
      plan: 'starter',
      status,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const { plain } = await t.runtime.services.team.create(
    { tenantId: id, actor: { kind: 'system', id: null } },
    { name: 'owner', level: 'owner' },
  );
  const host = `${subdomain}.packyard.test`;
  return { id, host, admin: { host, authorization: `Bearer ${plain}` } };
}
