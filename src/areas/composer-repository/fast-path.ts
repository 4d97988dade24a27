import type { IncomingMessage, ServerResponse } from 'node:http';
import { digest } from '../../infra/crypto.js';
import { DEFAULT_TENANT_ID } from '../../infra/db/schema.js';
import { customerSecret } from './credentials.js';
import type { MetadataKind } from '../../composer/metadata.js';
import {
  acceptsGzip,
  bodyHeaders,
  gzipped,
  identityWire,
  isFresh,
  representationHeaders,
} from './rendered-document.js';
import type { ResponseCache } from './response-cache.js';
import type { RenderedDocument } from './rendered-document.js';
import type { FastPathGate } from '../../http/rate-limit.js';
import { writeFastAnswer } from '../../http/fast-answer.js';
import type { FastAnswer, FastRequest } from '../../http/fast-answer.js';

/**
 * The canonical path of a p2 document, which its answer is cached under in an audience: a
 * request for exactly this path (lowercase, no query) is answered here when cached.
 */
export function p2Path(name: string, kind: MetadataKind): string {
  return kind === 'dev' ? `/p2/${name}~dev.json` : `/p2/${name}.json`;
}

/** The root document's path; its answer is cached in the audience like p2's. */
const ROOT_PATH = '/packages.json';

/**
 * The answer to a metadata request from a rendered document, the one rule for both the fast path
 * and the routed answer (routes.ts): gzip when accepted, the ETag of the encoding sent, Vary, and
 * 304 when the client's copy is current. `headers` holds what goes before (Last-Modified, the
 * rate-limit headers) and is extended; a 200 also carries the document's prepared `wire` (its
 * header lines from the ETag on, and the body), which the connection layer sends after the
 * first `wireAfter` entries of `headers`.
 */
export function metadataAnswer(
  req: Pick<FastRequest, 'headers'>,
  doc: RenderedDocument,
  headers: (string | number)[],
): FastAnswer {
  const gzip = acceptsGzip(req.headers['accept-encoding']) ? gzipped(doc) : null;
  const wireAfter = headers.length;
  headers.push(...representationHeaders(gzip ? gzip.etag : doc.etag));
  if (isFresh(req.headers['if-none-match'], req.headers['if-modified-since'], doc)) {
    return { status: 304, headers };
  }
  const wire = gzip ? gzip.wire : identityWire(doc);
  const body = gzip ? gzip.body : doc.body;
  headers.push(...bodyHeaders(gzip !== null, body.length));
  return { status: 200, headers, body, wire, wireAfter };
}

/**
 * The digest of the request's customer secret, null when its credentials are malformed (the route
 * then answers why). Made once per connection when the header repeats (fast-answer.ts).
 */
function credentialsDigest(req: FastRequest): string | null {
  const header = req.headers.authorization;
  const memo = req.memo;
  if (memo && header !== undefined && memo.authorization === header) return memo.secretDigest!;
  let secret: string;
  try {
    secret = customerSecret(header);
  } catch {
    return null;
  }
  const secretDigest = digest(secret);
  if (memo) {
    memo.authorization = header;
    memo.secretDigest = secretDigest;
  }
  return secretDigest;
}

/** A cache hit let through: it counts for the document (the proxy counts its hits), a 429 not. */
function served(req: FastRequest, doc: RenderedDocument, headers: (string | number)[]) {
  doc.onServe?.();
  return metadataAnswer(req, doc, headers);
}

/**
 * Answers metadata requests (`/packages.json` and p2) straight from the response cache, before
 * Fastify routes them: they are most of a registry's traffic, and for a cache hit the framework's
 * per-request work costs more than the answer itself. The same answers as the routed cache hit
 * (routes.ts `cached`). Returns null (and touches nothing) for anything it does not answer: the
 * request then takes the normal route, which fills the cache. Both transports use it: node:http
 * (`viaNodeHttp`) and the connection layer of src/http/fast-connections.ts.
 */
export function createP2FastPath(
  cache: ResponseCache,
  rateLimit?: FastPathGate,
  /** Cloud: the tenant of the request's host when known without waiting, else null. */
  tenantOf?: (req: FastRequest) => string | null,
) {
  const fastPath = (req: FastRequest): FastAnswer | Promise<FastAnswer> | null => {
    const url = req.url;
    if (req.method !== 'GET' || !url || !(url.startsWith('/p2/') || url === ROOT_PATH)) {
      return null;
    }
    const tenantId = tenantOf ? tenantOf(req) : DEFAULT_TENANT_ID;
    if (tenantId === null) return null;
    const secretDigest = credentialsDigest(req);
    if (secretDigest === null) return null;
    // Only canonical paths are ever cached, so any other spelling simply misses.
    const doc = cache.hit(tenantId, secretDigest, url);
    if (!doc) return null;
    // Counted against the Composer rate limit like routed requests (src/http/rate-limit.ts).
    const headers: (string | number)[] = ['last-modified', doc.lastModified];
    const verdict = rateLimit ? rateLimit(secretDigest, headers) : 'pass';
    fastPath.hits++;
    // With Redis, a token this node has not heard about lately is counted first (one round trip).
    if (verdict instanceof Promise)
      return verdict.then((v) => (v === 'pass' ? served(req, doc, headers) : v));
    return verdict === 'pass' ? served(req, doc, headers) : verdict;
  };
  /** Requests answered here, over either transport (for metrics and tests). */
  fastPath.hits = 0;
  /** The same over node:http: false when the request must take the route. */
  fastPath.viaNodeHttp = (req: IncomingMessage, res: ServerResponse): boolean => {
    const result = fastPath(req);
    if (result === null) return false;
    if (result instanceof Promise) void result.then((a) => writeFastAnswer(res, a));
    else writeFastAnswer(res, result);
    return true;
  };
  return fastPath;
}
