import crypto from 'node:crypto';
import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import { isPublicAddress } from '../../infra/git/host-guard.js';

/** What one attempt got: a status (null when no answer came), the start of the body, or why not. */
export interface SendResult {
  status: number | null;
  body: string | null;
  error: string | null;
  durationMs: number;
}

/** Kept of a receiver's answer, for the deliveries list. */
const BODY_KEPT = 1024;

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" under the secret>`. */
export function signature(secret: string, body: string, unixSeconds: number): string {
  const mac = crypto.createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/**
 * The address a delivery goes to, resolved once and pinned for the request (so a name cannot
 * resolve somewhere else between the check and the connection). With `publicOnly` (Cloud) every
 * address the name has must be public.
 */
export async function resolveTarget(url: URL, publicOnly: boolean): Promise<{ address: string }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = net.isIP(host)
    ? [{ address: host }]
    : await dns.lookup(host, { all: true, verbatim: true });
  if (addresses.length === 0) throw new Error(`${host} does not resolve`);
  if (publicOnly && !addresses.every((a) => isPublicAddress(a.address))) {
    throw new Error(`${host} is on a private network; private targets are not allowed`);
  }
  return addresses[0]!;
}

/**
 * POSTs `body` to `url` with `headers`: the address pinned, no redirect followed (a 3xx is not
 * a success), and the whole exchange bounded by `timeoutMs`, so a slow receiver never holds the
 * worker longer. Never throws.
 */
export async function send(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; publicOnly: boolean },
): Promise<SendResult> {
  const started = performance.now();
  const done = (r: Omit<SendResult, 'durationMs'>): SendResult => ({
    ...r,
    durationMs: Math.round(performance.now() - started),
  });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return done({ status: null, body: null, error: 'invalid URL' });
  }
  const deadline = AbortSignal.timeout(options.timeoutMs);
  try {
    // The name's lookup counts against the same deadline as the exchange.
    const { address } = await Promise.race([
      resolveTarget(target, options.publicOnly),
      new Promise<never>((_, reject) => {
        deadline.addEventListener('abort', () => reject(new Error('timed out')), { once: true });
      }),
    ]);
    const family = net.isIP(address);
    const lookup: LookupFunction = (_host, opts, cb) => {
      if (opts.all) cb(null, [{ address, family }]);
      else cb(null, address, family);
    };
    const client = target.protocol === 'https:' ? https : http;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = client.request(
        target,
        {
          method: 'POST',
          lookup,
          signal: deadline,
          agent: false,
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'user-agent': 'Packyard-Webhooks/1',
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let kept = 0;
          res.on('data', (chunk: Buffer) => {
            if (kept < BODY_KEPT) {
              chunks.push(chunk);
              kept += chunk.length;
            }
          });
          res.on('end', () => {
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8').slice(0, BODY_KEPT),
            });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    const ok = answer.status >= 200 && answer.status < 300;
    return done({
      status: answer.status,
      body: answer.body,
      error: ok ? null : `HTTP ${answer.status}`,
    });
  } catch (err) {
    const message = deadline.aborted
      ? `no answer within ${options.timeoutMs / 1000} s`
      : err instanceof Error
        ? err.message
        : String(err);
    return done({ status: null, body: null, error: message });
  }
}
