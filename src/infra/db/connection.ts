import { inspect } from 'node:util';
import { guardTenants, unscoped } from './tenant-scope.js';
import { namedStatements } from './compiled.js';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type { Migration, MigrationProvider } from 'kysely';
import type { Config } from '../../config/index.js';
import type { Database } from './schema.js';
import * as initial from './migrations/2026-11-22-01-initial.js';
import * as cacheGenerations from './migrations/2026-11-22-02-cache-generations.js';
import * as auditLog from './migrations/2026-11-22-03-audit-log.js';
import * as monorepos from './migrations/2026-11-22-04-monorepos.js';
import * as integrations from './migrations/2026-11-22-05-integrations.js';
import * as paymentEventOrder from './migrations/2026-11-22-06-payment-event-order.js';
import * as oneRunningTask from './migrations/2026-11-22-07-one-running-task-per-key.js';
import * as packageRepositoryKey from './migrations/2026-11-22-08-package-repository-key.js';
import * as accessStamp from './migrations/2026-11-23-01-access-stamp.js';
import * as proxy from './migrations/2026-11-23-02-proxy.js';
import * as storageCounter from './migrations/2026-11-24-10-storage-counter.js';
import * as urlCredentials from './migrations/2026-11-24-20-repository-url-credentials.js';
import * as advisories from './migrations/2026-11-24-31-advisories.js';
import * as publicGrants from './migrations/2026-11-24-40-public-grants.js';
import * as usageNotifications from './migrations/2026-11-24-50-usage-notifications.js';
import * as packageStamps from './migrations/2026-11-24-60-package-stamps.js';
import * as oauthBrowserBinding from './migrations/2026-11-24-70-oauth-browser-binding.js';
import * as eventsOutbox from './migrations/2026-11-27-10-events-outbox.js';
import * as versionReadmes from './migrations/2026-11-27-20-version-readmes.js';
import * as archivePacks from './migrations/2026-11-27-30-archive-packs.js';

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

// PostgreSQL returns bigint and numeric (SUM) as strings; our counters fit in a JS number.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
pg.types.setTypeParser(1700, (v) => Number.parseFloat(v));

// Run in the order of their names: keep the numbered date prefix.
const MIGRATIONS: Record<string, Migration> = {
  '2026-11-22-01-initial': initial,
  '2026-11-22-02-cache-generations': cacheGenerations,
  '2026-11-22-03-audit-log': auditLog,
  '2026-11-22-04-monorepos': monorepos,
  '2026-11-22-05-integrations': integrations,
  '2026-11-22-06-payment-event-order': paymentEventOrder,
  '2026-11-22-07-one-running-task-per-key': oneRunningTask,
  '2026-11-22-08-package-repository-key': packageRepositoryKey,
  '2026-11-23-01-access-stamp': accessStamp,
  '2026-11-23-02-proxy': proxy,
  '2026-11-24-10-storage-counter': storageCounter,
  '2026-11-24-20-repository-url-credentials': urlCredentials,
  '2026-11-24-31-advisories': advisories,
  '2026-11-24-40-public-grants': publicGrants,
  '2026-11-24-50-usage-notifications': usageNotifications,
  '2026-11-24-60-package-stamps': packageStamps,
  '2026-11-24-70-oauth-browser-binding': oauthBrowserBinding,
  '2026-11-27-10-events-outbox': eventsOutbox,
  '2026-11-27-20-version-readmes': versionReadmes,
  '2026-11-27-30-archive-packs': archivePacks,
};

class StaticMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return MIGRATIONS;
  }
}

export interface DbHandle {
  db: Db;
  dialect: Dialect;
  /** Where the data lives, for the start-up banner. */
  describe: string;
}

/** Opens the database the settings name: PostgreSQL with DATABASE_URL, else SQLite in DATA_DIR. */
export async function openDatabase(config: Config): Promise<DbHandle> {
  if (config.databaseUrl) {
    const schema = config.databaseSchema;
    if (schema) {
      // Create the schema with a throwaway connection before the pool starts using it.
      const client = new pg.Client({ connectionString: config.databaseUrl });
      await client.connect();
      try {
        await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      } finally {
        await client.end();
      }
    }
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({
        pool: withNamedStatements(pool),
        onCreateConnection: schema
          ? async (conn) => {
              await conn.executeQuery(sql`SET search_path TO ${sql.id(schema)}`.compile(db));
            }
          : undefined,
      }),
    });
    const where = new URL(config.databaseUrl);
    where.password = '';
    return {
      db: guardTenants(db),
      dialect: 'postgres',
      describe: `PostgreSQL ${where.host}${where.pathname}`,
    };
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  const file = path.join(config.dataDir, 'packyard.sqlite');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
  });
  return { db: guardTenants(db), dialect: 'sqlite', describe: `SQLite ${file}` };
}

/**
 * The pool Kysely draws from, whose connections run the hot queries of `namedStatements` as named
 * prepared statements. Each client keeps one wrapper, so Kysely (which keys its connections by
 * client) sets each connection up once.
 */
function withNamedStatements(pool: pg.Pool) {
  const wrapped = new WeakMap<pg.PoolClient, pg.PoolClient>();
  const nameOf = (text: unknown) =>
    typeof text === 'string' ? namedStatements.get(text) : undefined;
  return {
    end: () => pool.end(),
    connect: async () => {
      const client = await pool.connect();
      let wrapper = wrapped.get(client);
      if (!wrapper) {
        wrapper = Object.create(client) as pg.PoolClient;
        wrapper.query = ((text: unknown, values: unknown) => {
          const name = nameOf(text);
          return name
            ? client.query({ name, text: text as string, values: values as unknown[] })
            : client.query(text as string, values as unknown[]);
        }) as pg.PoolClient['query'];
        wrapper.release = (err?: Error | boolean) => client.release(err);
        wrapped.set(client, wrapper);
      }
      return wrapper;
    },
  };
}

/**
 * Kysely's SQLite driver prepares every query anew, which costs more than running it; reusing
 * statements by SQL text is safe because better-sqlite3 runs one statement at a time.
 */
function withStatementCache(sqlite: SQLite.Database) {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare: (text: string) => {
      let statement = statements.get(text);
      if (!statement) {
        if (statements.size >= 1000) statements.clear();
        statement = sqlite.prepare(text);
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

/**
 * Brings the schema up to date (or up to the migration named `target`, for tests of a
 * migration); safe to run on every start and from several nodes.
 */
export async function migrate(
  db: Db,
  schema: string | null = null,
  target?: string,
): Promise<string[]> {
  // Kysely looks for its lock table in any schema unless told which one is ours.
  const migrator = new Migrator({
    db: unscoped(db, 'migrations rewrite every tenant'),
    provider: new StaticMigrationProvider(),
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await (target
    ? migrator.migrateTo(target)
    : migrator.migrateToLatest());
  if (error) throw error instanceof Error ? error : new Error(inspect(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
