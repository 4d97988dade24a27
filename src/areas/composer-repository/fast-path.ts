import type { IncomingMessage, ServerResponse } from 'node:http';
import { digest } from '../../infra/crypto.js';
import { DEFAULT_TENANT_ID } from '../../infra/db/schema.js';
import { customerSecret } from './credentials.js';
import type { MetadataKind } from '../../composer/metadata.js';
import { ResponseCache, isFresh } from './response-cache.js';
import type { FastPathGate } from '../../http/rate-limit.js';

const P2_PATH = /^\/p2\/([a-z0-9_.-]+\/[a-z0-9_.-]+?)(~dev)?\.json$/;

/** What a p2 answer is cached under, beside the tenant and the token's digest. */
export function p2CacheKey(name: string, kind: MetadataKind): string {
  return `p2\n${name}\n${kind}`;
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
    if (req.method !== 'GET' || !req.url?.startsWith('/p2/')) return false;
    const match = P2_PATH.exec(req.url);
    if (!match?.[1]) return false;
    let secret: string;
    try {
      secret = customerSecret(req.headers.authorization);
    } catch {
      return false;
    }
    const tenantId = tenantOf ? tenantOf(req) : DEFAULT_TENANT_ID;
    if (tenantId === null) return false;
    const secretDigest = digest(secret);
    const key = ResponseCache.key(
      tenantId,
      secretDigest,
      p2CacheKey(match[1], match[2] ? 'dev' : 'tags'),
    );
    const doc = cache.get(tenantId, key);
    if (!doc) return false;
    // Counted against the Composer rate limit like routed requests (src/http/rate-limit.ts).
    const verdict = rateLimit ? rateLimit(secretDigest, res) : 'pass';
    if (verdict === 'defer') return false;
    if (verdict === 'limited') {
      fastPath.hits++;
      return true;
    }
    const headers = { 'last-modified': doc.lastModified, etag: doc.etag };
    if (isFresh(req.headers['if-none-match'], req.headers['if-modified-since'], doc)) {
      res.writeHead(304, headers).end();
    } else {
      res
        .writeHead(200, {
          ...headers,
          'content-type': 'application/json',
          'content-length': doc.body.length,
        })
        .end(doc.body);
    }
    doc.onServe?.();
    fastPath.hits++;
    return true;
  };
  /** Requests answered here (for metrics and tests). */
  fastPath.hits = 0;
  return fastPath;
}
