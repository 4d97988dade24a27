import path from 'node:path';

/** The editions of decisions.md section 2. */
export const EDITIONS = ['community', 'pro', 'enterprise', 'cloud'] as const;
export type Edition = (typeof EDITIONS)[number];

/** Every setting Packyard reads. This module is the only reader of process.env. */
export interface Config {
  /** HTTP port (PORT, default 8080). */
  port: number;
  /** Interface to bind (HOST, default 0.0.0.0). */
  host: string;
  /** Prefix of every absolute URL the service emits (BASE_URL, default http://localhost:PORT). */
  baseUrl: string;
  /** Where the SQLite file, git mirrors and archives live (DATA_DIR, default ./data). */
  dataDir: string;
  /** postgres://… to use PostgreSQL instead of the embedded SQLite file (DATABASE_URL). */
  databaseUrl: string | null;
  /** PostgreSQL schema to use; created when missing (DATABASE_SCHEMA, default public). */
  databaseSchema: string | null;
  /** Root admin token; generated, stored and printed once when unset (ADMIN_TOKEN). */
  adminToken: string | null;
  /** community | pro | enterprise | cloud (EDITION, default enterprise). */
  edition: Edition;
  /** Secret for customer JWTs; the jwt endpoint is unavailable without it (JWT_SECRET). */
  jwtSecret: string | null;
  /** Run background tasks in this process (WORKER=on|off, default on). */
  worker: boolean;
  /** Kill a git command after this many seconds (GIT_TIMEOUT_SECONDS, default 300). */
  gitTimeoutMs: number;
  /** Monthly archive bandwidth limit in bytes, 0 = unlimited (BANDWIDTH_LIMIT_BYTES). */
  bandwidthLimitBytes: number;
  /** Archive storage limit in bytes, 0 = unlimited (STORAGE_LIMIT_BYTES). */
  storageLimitBytes: number;
  /** pino log level (LOG_LEVEL, default info; silent in tests). */
  logLevel: string;
  /** Largest accepted request body in bytes (BODY_LIMIT_BYTES, default 1 MiB). */
  bodyLimitBytes: number;
  /** Largest accepted artifact zip upload in bytes (ARTIFACT_MAX_BYTES, default 50 MiB). */
  artifactMaxBytes: number;
  /** Who the license is issued to, shown by GET /api/v1/license (LICENSEE, default Unlicensed). */
  licensee: string;
  /** When the license ends, ISO 8601; null = never (LICENSE_EXPIRES_AT). */
  licenseExpiresAt: string | null;
  /** When set, GET /metrics requires `Authorization: Bearer <it>` (METRICS_TOKEN). */
  metricsToken: string | null;
  /** Re-sync every package this often, in minutes; 0 = off (SYNC_INTERVAL_MINUTES). */
  syncIntervalMinutes: number;
  /** Audit entries older than this many days are removed by cleanup (AUDIT_LOG_RETENTION_DAYS, default 90). */
  auditLogRetentionDays: number;
  /** redis://… to keep rate-limit counters in Redis, shared by every node (REDIS_URL). */
  redisUrl: string | null;
  /** Prefix of every Redis key Packyard writes (REDIS_KEY_PREFIX, default packyard:). */
  redisKeyPrefix: string;
  /** Admin API requests per token and minute, 0 = off (RATE_LIMIT_ADMIN_PER_MINUTE, default 600). */
  rateLimitAdminPerMinute: number;
  /** Composer requests per token and minute, 0 = off (RATE_LIMIT_COMPOSER_PER_MINUTE, default 6000). */
  rateLimitComposerPerMinute: number;
  /** Serve GraphiQL at GET /graphql/playground (GRAPHQL_PLAYGROUND, default off). */
  graphqlPlayground: boolean;
  /** Answer GraphQL introspection (GRAPHQL_INTROSPECTION; default on only when NODE_ENV=development). */
  graphqlIntrospection: boolean;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) {
    throw new ConfigError(`${name} must be a whole number >= ${min}, got "${raw}"`);
  }
  return Number(raw);
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['on', 'true', '1', 'yes'].includes(raw)) return true;
  if (['off', 'false', '0', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name} must be on or off, got "${env[name]}"`);
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.join(' or ')}, got "${raw}"`);
  }
  return raw;
}

function isoDate(env: Env, name: string): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  const shape = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;
  const time = Date.parse(raw);
  // A date-only value must name a real day (Date.parse rolls 2027-02-31 over into March).
  const rolledOver = (): boolean =>
    raw.length === 10 && new Date(time).toISOString().slice(0, 10) !== raw;
  if (!shape.test(raw) || Number.isNaN(time) || rolledOver()) {
    throw new ConfigError(`${name} must be an ISO 8601 date such as 2027-01-31, got "${raw}"`);
  }
  return new Date(time).toISOString();
}

/** Reads and validates the settings; throws ConfigError with a message naming the bad setting. */
export function loadConfig(env: Env = process.env): Readonly<Config> {
  const port = integer(env, 'PORT', 8080, 0);
  if (port > 65535) throw new ConfigError(`PORT must be at most 65535, got ${port}`);
  const edition = (env.EDITION ?? 'enterprise').toLowerCase();
  if (!(EDITIONS as readonly string[]).includes(edition)) {
    throw new ConfigError(`EDITION must be one of ${EDITIONS.join(', ')}, got "${env.EDITION}"`);
  }
  const baseUrl = url(env, 'BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`;
  const adminToken = env.ADMIN_TOKEN || null;
  if (adminToken !== null && adminToken.length < 16) {
    throw new ConfigError('ADMIN_TOKEN must be at least 16 characters long');
  }
  const schema = env.DATABASE_SCHEMA || null;
  if (schema !== null && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new ConfigError(`DATABASE_SCHEMA must be a lower-case SQL identifier, got "${schema}"`);
  }
  return Object.freeze({
    port,
    host: env.HOST || '0.0.0.0',
    baseUrl: baseUrl.replace(/\/+$/, ''),
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    databaseSchema: schema,
    adminToken,
    edition: edition as Edition,
    jwtSecret: env.JWT_SECRET || null,
    worker: flag(env, 'WORKER', true),
    gitTimeoutMs: integer(env, 'GIT_TIMEOUT_SECONDS', 300, 1) * 1000,
    bandwidthLimitBytes: integer(env, 'BANDWIDTH_LIMIT_BYTES', 0),
    storageLimitBytes: integer(env, 'STORAGE_LIMIT_BYTES', 0),
    logLevel: env.LOG_LEVEL || 'info',
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024),
    artifactMaxBytes: integer(env, 'ARTIFACT_MAX_BYTES', 50 * 1024 * 1024, 1024),
    licensee: env.LICENSEE?.trim() || 'Unlicensed',
    licenseExpiresAt: isoDate(env, 'LICENSE_EXPIRES_AT'),
    metricsToken: env.METRICS_TOKEN || null,
    syncIntervalMinutes: integer(env, 'SYNC_INTERVAL_MINUTES', 0),
    auditLogRetentionDays: integer(env, 'AUDIT_LOG_RETENTION_DAYS', 90, 1),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisKeyPrefix: env.REDIS_KEY_PREFIX ?? 'packyard:',
    rateLimitAdminPerMinute: integer(env, 'RATE_LIMIT_ADMIN_PER_MINUTE', 600),
    rateLimitComposerPerMinute: integer(env, 'RATE_LIMIT_COMPOSER_PER_MINUTE', 6000),
    graphqlPlayground: flag(env, 'GRAPHQL_PLAYGROUND', false),
    graphqlIntrospection: flag(env, 'GRAPHQL_INTROSPECTION', env.NODE_ENV === 'development'),
  });
}
