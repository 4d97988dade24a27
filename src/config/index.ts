import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from './error.js';
import { baseOf, flag, integer, isoDate, port16, url } from './values.js';
import type { Env } from './values.js';
import { storageSettings } from './storage.js';
import type { StorageSettings } from './storage.js';
export { ConfigError, storageSettings };
export type { StorageSettings };
import { proxySettings } from './proxy.js';
import { advisorySettings } from './advisories.js';
import type { AdvisorySettings } from './advisories.js';
import type { ProxySettings } from './proxy.js';
import { securitySettings } from './security.js';
import { eventSettings } from './events.js';
import type { EventSettings } from './events.js';
import { cloudSettings } from './cloud.js';
import { mailSettings } from './mail.js';
import type { MailSettings } from './mail.js';
import type { CloudSettings } from './cloud.js';
import type { SecuritySettings } from './security.js';

/** The editions of docs/operations.md. */
export const EDITIONS = ['community', 'pro', 'enterprise', 'cloud'] as const;
export type Edition = (typeof EDITIONS)[number];

/** Every setting Packyard reads. This module is the only reader of process.env. */
export interface Config extends SecuritySettings, EventSettings {
  /** HTTP port (PORT, default 8080). */
  port: number;
  /** Interface to bind (HOST, default 0.0.0.0). */
  host: string;
  /** Prefix of every absolute URL the service emits (BASE_URL, default http://localhost:PORT). */
  baseUrl: string;
  /** Where the SQLite file, git mirrors and archives live (DATA_DIR, default ./data). */
  dataDir: string;
  /** Archives: DATA_DIR/archives, or STORAGE_URL `file:///folder` or `s3://bucket/prefix`. */
  storage: StorageSettings;
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
  /** A task whose worker stops renewing its claim this long is run by another (TASK_LEASE_SECONDS, 60). */
  taskLeaseSeconds: number;
  /** `packyard serve` processes on this machine, node's cluster (WEB_CONCURRENCY, default: cores). */
  webConcurrency: number;
  /**
   * Packages may name repositories on this server's disk (file:// URLs, absolute paths):
   * ALLOW_LOCAL_REPOSITORIES, default on except in the Cloud edition, where tenants must not
   * read the server's files.
   */
  allowLocalRepositories: boolean;
  /** `packyard worker` serves /metrics, /healthz and /readyz on this port; 0 = none (WORKER_METRICS_PORT). */
  workerMetricsPort: number;
  /** Kill a git command after this many seconds (GIT_TIMEOUT_SECONDS, default 300). */
  gitTimeoutMs: number;
  /**
   * Start git processes from a small launcher process instead of forking this one
   * (GIT_LAUNCHER=on|off, default on; src/infra/git/launcher.ts).
   */
  gitLauncher: boolean;
  /**
   * Make a sync's zips in a worker thread while the server's thread reads git (ZIP_THREAD=on|off,
   * default on where there is more than one core; src/infra/git/zip-thread.ts).
   */
  zipThread: boolean;
  /** Give up on a call to a git host's API or OAuth endpoints after this (HOST_API_TIMEOUT_SECONDS, default 15). */
  hostApiTimeoutMs: number;
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
  /** Largest accepted inbound webhook body in bytes (WEBHOOK_MAX_BYTES, default 5 MiB). */
  webhookMaxBytes: number;
  /** Inbound webhook secrets; a route whose secret is unset answers 403 (docs/webhooks.md). */
  webhookSecrets: WebhookSecrets;
  /** Key for tokens stored at rest (OAuth access/refresh tokens); OAuth is off without it (ENCRYPTION_KEY, >= 32 characters). */
  encryptionKey: string | null;
  /** GitHub: web and API base URLs, OAuth app credentials. */
  github: GitHostSettings & { apiUrl: string };
  /** GitLab: base URL (web, API and OAuth live under it), OAuth app credentials. */
  gitlab: GitHostSettings;
  /** The GitHub App (host app); null fields mean not configured. */
  githubApp: GitHubAppSettings;
  /** The proxy of a public Composer repository (src/config-proxy.ts). */
  proxy: ProxySettings;
  /** Security-advisory import (src/config-advisories.ts). */
  advisories: AdvisorySettings;
  /** The Cloud edition's platform token and plans (src/config-cloud.ts). */
  cloud: CloudSettings;
  /** Notification e-mail: SMTP_URL, MAIL_FROM (src/config-mail.ts). */
  mail: MailSettings;
}

export interface WebhookSecrets {
  /** GITHUB_WEBHOOK_SECRET */
  github: string | null;
  /** GITLAB_WEBHOOK_SECRET */
  gitlab: string | null;
  /** BITBUCKET_WEBHOOK_SECRET */
  bitbucket: string | null;
  /** HOSTAPP_WEBHOOK_SECRET: the GitHub App's webhook secret. */
  hostapp: string | null;
  /** STRIPE_WEBHOOK_SECRET */
  payment: string | null;
}

export interface GitHostSettings {
  /** Where users sign in and repositories live (GITHUB_URL, default https://github.com; GITLAB_URL, default https://gitlab.com). */
  url: string;
  /** OAuth application id (GITHUB_CLIENT_ID, GITLAB_CLIENT_ID). */
  clientId: string | null;
  /** OAuth application secret (GITHUB_CLIENT_SECRET, GITLAB_CLIENT_SECRET). */
  clientSecret: string | null;
}

export interface GitHubAppSettings {
  /** GITHUB_APP_ID */
  appId: string | null;
  /** PEM private key, from GITHUB_APP_PRIVATE_KEY or the file GITHUB_APP_PRIVATE_KEY_FILE. */
  privateKey: string | null;
  /** The app's URL name, for the install link (GITHUB_APP_SLUG). */
  slug: string | null;
  /**
   * The App's OAuth client (GITHUB_APP_CLIENT_ID, GITHUB_APP_CLIENT_SECRET): with them, an
   * installation can be claimed with proof that the claimer manages it (required in Cloud).
   */
  clientId: string | null;
  clientSecret: string | null;
}

function encryptionKey(env: Env): string | null {
  const raw = env.ENCRYPTION_KEY || null;
  if (raw !== null && raw.length < 32) {
    throw new ConfigError('ENCRYPTION_KEY must be at least 32 characters long');
  }
  return raw;
}

function privateKey(env: Env): string | null {
  const inline = env.GITHUB_APP_PRIVATE_KEY || null;
  const file = env.GITHUB_APP_PRIVATE_KEY_FILE || null;
  let pem = inline;
  if (pem === null && file !== null) {
    try {
      pem = fs.readFileSync(file, 'utf8');
    } catch (err) {
      throw new ConfigError(
        `GITHUB_APP_PRIVATE_KEY_FILE cannot be read: ${(err as Error).message}`,
      );
    }
  }
  if (pem === null) return null;
  // Environments often carry the PEM on one line with literal \n.
  pem = pem.includes('\\n') ? pem.replace(/\\n/g, '\n') : pem;
  try {
    if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem)) throw new Error('no PEM header');
    crypto.createPrivateKey(pem);
  } catch (err) {
    throw new ConfigError(
      `GITHUB_APP_PRIVATE_KEY must be the App's PEM private key: ${(err as Error).message}`,
    );
  }
  return pem;
}

/** Reads and validates the settings; throws ConfigError with a message naming the bad setting. */
/** The storage `storage migrate --to` names, read against the same environment as the rest. */
export function storageTarget(raw: string, dataDir: string, env: Env = process.env) {
  return storageSettings(raw, dataDir, env, '--to');
}

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
  const dataDir = path.resolve(env.DATA_DIR || './data');
  return Object.freeze({
    ...securitySettings(env, edition),
    ...eventSettings(env),
    port,
    host: env.HOST || '0.0.0.0',
    baseUrl: baseUrl.replace(/\/+$/, ''),
    dataDir,
    storage: storageSettings(env.STORAGE_URL, dataDir, env),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    databaseSchema: schema,
    adminToken,
    edition: edition as Edition,
    jwtSecret: env.JWT_SECRET || null,
    worker: flag(env, 'WORKER', true),
    taskLeaseSeconds: integer(env, 'TASK_LEASE_SECONDS', 60, 3),
    webConcurrency: integer(env, 'WEB_CONCURRENCY', os.availableParallelism(), 1),
    allowLocalRepositories: flag(env, 'ALLOW_LOCAL_REPOSITORIES', edition !== 'cloud'),
    workerMetricsPort: port16(env, 'WORKER_METRICS_PORT'),
    gitTimeoutMs: integer(env, 'GIT_TIMEOUT_SECONDS', 300, 1) * 1000,
    gitLauncher: flag(env, 'GIT_LAUNCHER', true),
    zipThread: flag(env, 'ZIP_THREAD', true),
    hostApiTimeoutMs: integer(env, 'HOST_API_TIMEOUT_SECONDS', 15, 1) * 1000,
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
    webhookMaxBytes: integer(env, 'WEBHOOK_MAX_BYTES', 5 * 1024 * 1024, 1024),
    webhookSecrets: {
      github: env.GITHUB_WEBHOOK_SECRET || null,
      gitlab: env.GITLAB_WEBHOOK_SECRET || null,
      bitbucket: env.BITBUCKET_WEBHOOK_SECRET || null,
      hostapp: env.HOSTAPP_WEBHOOK_SECRET || null,
      payment: env.STRIPE_WEBHOOK_SECRET || null,
    },
    encryptionKey: encryptionKey(env),
    github: {
      url: baseOf(env, 'GITHUB_URL', 'https://github.com'),
      apiUrl: baseOf(env, 'GITHUB_API_URL', 'https://api.github.com'),
      clientId: env.GITHUB_CLIENT_ID || null,
      clientSecret: env.GITHUB_CLIENT_SECRET || null,
    },
    gitlab: {
      url: baseOf(env, 'GITLAB_URL', 'https://gitlab.com'),
      clientId: env.GITLAB_CLIENT_ID || null,
      clientSecret: env.GITLAB_CLIENT_SECRET || null,
    },
    githubApp: {
      appId: env.GITHUB_APP_ID || null,
      privateKey: privateKey(env),
      slug: env.GITHUB_APP_SLUG || null,
      clientId: env.GITHUB_APP_CLIENT_ID || null,
      clientSecret: env.GITHUB_APP_CLIENT_SECRET || null,
    },
    proxy: proxySettings(env, { integer, baseOf, fail: (m) => new ConfigError(m) }),
    advisories: advisorySettings(env, { integer }),
    cloud: cloudSettings(env),
    mail: mailSettings(env, baseUrl, { fail: (m) => new ConfigError(m) }),
  });
}
