import type { IncomingMessage, ServerResponse } from 'node:http';
import { digest } from '../../infra/crypto.js';
import { DEFAULT_TENANT_ID } from '../../infra/db/schema.js';
import { customerSecret } from './credentials.js';
import type { MetadataKind } from '../../composer/metadata.js';
import { acceptsGzip, gzipped, isFresh } from './response-cache.js';
import type { RenderedDocument, ResponseCache } from './response-cache.js';
import type { FastPathGate } from '../../http/rate-limit.js';

/**
 * The canonical path of a p2 document, which its answer is cached under in an audience: a
 * request for exactly this path (lowercase, no query) is answered here when cached.
 */
export function p2Path(name: string, kind: MetadataKind): string {
  return kind === 'dev' ? `/p2/${name}~dev.json` : `/p2/${name}.json`;
}

function answer(
  req: IncomingMessage,
  res: ServerResponse,
  doc: RenderedDocument,
  headers: (string | number)[],
): void {
  const gzip = acceptsGzip(req.headers['accept-encoding']) ? gzipped(doc) : null;
  headers.push('etag', gzip ? gzip.etag : doc.etag, 'vary', 'Accept-Encoding');
  if (isFresh(req.headers['if-none-match'], req.headers['if-modified-since'], doc)) {
    res.writeHead(304, headers).end();
  } else if (gzip) {
    headers.push('content-type', 'application/json', 'content-encoding', 'gzip');
    headers.push('content-length', gzip.body.length);
    res.writeHead(200, headers).end(gzip.body);
  } else {
    headers.push('content-type', 'application/json', 'content-length', doc.body.length);
    res.writeHead(200, headers).end(doc.body);
  }
  doc.onServe?.();
}

/**
 * Answers a p2 request straight from the response cache, before Fastify routes it: metadata
 * requests are most of a registry's traffic, and for a cache hit the framework's per-request
 * work costs more than the answer itself. Returns false (and touches nothing) for anything it
 * does not answer: the request then takes the normal route, which fills the cache.
 */
export function createP2FastPath(
  cache: ResponseCache,
  rateLimit?: FastPathGate,
  /** Cloud: the tenant of the request's host when known without waiting, else null. */
  tenantOf?: (req: IncomingMessage) => string | null,
) {
  const fastPath = (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = req.url;
    if (req.method !== 'GET' || !url?.startsWith('/p2/')) return false;
    let secret: string;
    try {
      secret = customerSecret(req.headers.authorization);
    } catch {
      return false;
    }
    const tenantId = tenantOf ? tenantOf(req) : DEFAULT_TENANT_ID;
    if (tenantId === null) return false;
    const secretDigest = digest(secret);
    // Only canonical paths are ever cached, so any other spelling simply misses.
    const doc = cache.hit(tenantId, secretDigest, url);
    if (!doc) return false;
    // Counted against the Composer rate limit like routed requests (src/http/rate-limit.ts).
    const headers: (string | number)[] = ['last-modified', doc.lastModified];
    const verdict = rateLimit ? rateLimit(secretDigest, res, headers) : 'pass';
    fastPath.hits++;
    // With Redis, a token this node has not heard about lately is counted first (one round trip).
    if (verdict instanceof Promise) {
      void verdict.then((v) => v === 'pass' && answer(req, res, doc, headers));
    } else if (verdict === 'pass') {
      answer(req, res, doc, headers);
    }
    return true;
  };
  /** Requests answered here (for metrics and tests). */
  fastPath.hits = 0;
  return fastPath;
}
