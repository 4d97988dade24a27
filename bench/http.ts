import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { ChildServer, freePort } from './processes.js';

/** The admin token every benchmark's server is started with. */
export const ADMIN_TOKEN = 'bench-root-admin-token-0123456789';

/** A JSON body, or raw bytes sent as they are. */
const encode = (body: unknown) =>
  body === undefined ? undefined : body instanceof Buffer ? body : JSON.stringify(body);

/**
 * One request with node:http, answered as its status and body text (no status is an error).
 * `fresh` sends it on a new connection, as a new user's curl would; otherwise it goes through
 * node's default agent. `auth` defaults to the bench admin token.
 */
export function send(
  url: string,
  method: string,
  body?: unknown,
  options: { fresh?: boolean; auth?: string } = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        ...(options.fresh ? { agent: false } : {}),
        headers: {
          authorization: options.auth ?? `Bearer ${ADMIN_TOKEN}`,
          'content-type': 'application/json',
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(encode(body));
  });
}

/**
 * One API call with fetch: the body text, or an error naming the request for a status of 400 and
 * above. `auth` defaults to the bench admin token; `type` is the body's content type.
 */
export async function call(
  url: string,
  method: string,
  body?: unknown,
  options: { auth?: string; type?: string } = {},
): Promise<string> {
  const res = await fetch(url, {
    method,
    headers: {
      authorization: options.auth ?? `Bearer ${ADMIN_TOKEN}`,
      'content-type': options.type ?? 'application/json',
    },
    body: encode(body),
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${url} -> ${res.status} ${text}`);
  return text;
}

/** A ChildServer's readiness probe: the server answers /readyz with 200. */
export const readyz = async (url: string) => (await fetch(`${url}/readyz`)).ok;

/**
 * `packyard serve` for one benchmark: a free port, a new DATA_DIR (the caller removes it), the
 * bench admin token, one process and no admin rate limit unless `env` says otherwise.
 */
export async function startServe(
  label: string,
  env: Record<string, string> = {},
): Promise<{ server: ChildServer; dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `packyard-${label}-`));
  const port = await freePort();
  const server = await ChildServer.start({
    label,
    port,
    nodeArgs: ['bin/packyard.js', 'serve'],
    env: {
      DATA_DIR: dataDir,
      PORT: String(port),
      BASE_URL: `http://127.0.0.1:${port}`,
      WEB_CONCURRENCY: '1',
      ADMIN_TOKEN,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_ADMIN_PER_MINUTE: '0',
      ...env,
    },
    ready: readyz,
    timeoutMs: 90_000,
  });
  return { server, dataDir };
}
