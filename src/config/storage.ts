import path from 'node:path';
import { ConfigError } from './error.js';
import { flag } from './values.js';
import type { Env } from './values.js';

/** Archive storage: a folder on this machine, or an S3-compatible bucket shared by every node. */
export type StorageSettings = { kind: 'fs'; root: string } | ({ kind: 's3' } & S3Settings);

export interface S3Settings {
  bucket: string;
  /** Key prefix inside the bucket, without slashes at either end ('' = the bucket's root). */
  prefix: string;
  /** AWS_REGION (default us-east-1; MinIO and s3rver accept any). */
  region: string;
  /** S3_ENDPOINT: the server's base URL for MinIO, Ceph, R2…; null = AWS itself. */
  endpoint: string | null;
  /** S3_FORCE_PATH_STYLE: bucket in the path instead of the host name (default on with S3_ENDPOINT). */
  forcePathStyle: boolean;
  /** AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; null = the SDK's default chain (instance roles). */
  accessKeyId: string | null;
  secretAccessKey: string | null;
}

function endpointOf(env: Env): string | null {
  const raw = env.S3_ENDPOINT;
  if (raw === undefined || raw === '') return null;
  let parsed: URL | null = null;
  try {
    parsed = new URL(raw);
  } catch {
    // reported below
  }
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol)) {
    throw new ConfigError(`S3_ENDPOINT must be an http(s) URL, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

/**
 * Archive storage named by a URL (STORAGE_URL, or `packyard storage migrate --to`), with the S3
 * credentials and endpoint from the environment. `setting` names the source in error messages.
 */
export function storageSettings(
  raw: string | undefined,
  dataDir: string,
  env: Env,
  setting = 'STORAGE_URL',
): StorageSettings {
  if (raw === undefined || raw === '') return { kind: 'fs', root: path.join(dataDir, 'archives') };
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${setting} must be s3://bucket/prefix or file:///path, got "${raw}"`);
  }
  if (parsed.protocol === 'file:') {
    if (parsed.host !== '' || parsed.pathname === '/') {
      throw new ConfigError(`${setting} must be file:///an/absolute/folder, got "${raw}"`);
    }
    return { kind: 'fs', root: path.resolve(decodeURIComponent(parsed.pathname)) };
  }
  if (parsed.protocol !== 's3:') {
    throw new ConfigError(
      `${setting} must start with s3:// or file:// (archive storage), got "${parsed.protocol}//…"`,
    );
  }
  // S3 bucket names: 3-63 lower-case letters, digits, dots and hyphens.
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(parsed.hostname)) {
    throw new ConfigError(`${setting} must name a valid bucket (s3://bucket/prefix), got "${raw}"`);
  }
  if (parsed.username || parsed.password || parsed.search || parsed.hash || parsed.port) {
    throw new ConfigError(
      `${setting} must be s3://bucket/prefix only; credentials go in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`,
    );
  }
  const prefix = decodeURIComponent(parsed.pathname).replace(/^\/+|\/+$/g, '');
  if (prefix !== '' && !/^[A-Za-z0-9._\-/]+$/.test(prefix)) {
    throw new ConfigError(`${setting} prefix may hold letters, digits, . _ - and / only`);
  }
  const accessKeyId = env.AWS_ACCESS_KEY_ID || null;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY || null;
  if ((accessKeyId === null) !== (secretAccessKey === null)) {
    throw new ConfigError('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together');
  }
  const endpoint = endpointOf(env);
  return {
    kind: 's3',
    bucket: parsed.hostname,
    prefix,
    region: env.AWS_REGION || 'us-east-1',
    endpoint,
    forcePathStyle: flag(env, 'S3_FORCE_PATH_STYLE', endpoint !== null),
    accessKeyId,
    secretAccessKey,
  };
}
