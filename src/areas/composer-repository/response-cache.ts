import crypto from 'node:crypto';
import zlib from 'node:zlib';
import type { CacheGeneration } from '../../infra/cache-generation.js';

/** A rendered metadata answer: what the route sends, and what makes it conditional. */
export interface RenderedDocument {
  /** The encoded body, ready for the socket. */
  body: Buffer;
  /**
   * The body's fixed header lines (from the ETag on, with the empty line) followed by the body,
   * in one buffer that `body` is a view of: a cache hit is sent as its varying lines and this,
   * with no copy (fast-connections.ts).
   */
  wire?: Buffer;
  etag: string;
  /** Milliseconds, whole seconds (HTTP dates have no finer precision). */
  lastModifiedMs: number;
  /** The Last-Modified header value. */
  lastModified: string;
  /** Called each time the cached answer is served again (the proxy counts its cache hits). */
  onServe?: () => void;
  /** The body gzipped, made once (`gzipped`) and kept beside it; its own ETag. */
  gzip?: Buffer;
  gzipEtag?: string;
  gzipWire?: Buffer;
}

/** The headers naming a representation, on a 200 and on a 304 alike. */
export const representationHeaders = (etag: string): (string | number)[] => [
  'etag',
  etag,
  'vary',
  'Accept-Encoding',
];

/** The headers describing a 200's body. */
export const bodyHeaders = (gzip: boolean, length: number): (string | number)[] =>
  gzip
    ? ['content-type', 'application/json', 'content-encoding', 'gzip', 'content-length', length]
    : ['content-type', 'application/json', 'content-length', length];

/**
 * A 200's fixed header lines and its body in one buffer: `{ wire, body }`, body a view of wire.
 * One copy of the body, once per document and encoding.
 */
function onWire(etag: string, body: Buffer, gzip: boolean): { wire: Buffer; body: Buffer } {
  const fields = [...representationHeaders(etag), ...bodyHeaders(gzip, body.length)];
  let head = '';
  for (let i = 0; i < fields.length; i += 2) head += `${fields[i]}: ${fields[i + 1]}\r\n`;
  head += '\r\n';
  const headBytes = Buffer.byteLength(head, 'latin1');
  const wire = Buffer.allocUnsafeSlow(headBytes + body.length);
  wire.write(head, 0, 'latin1');
  body.copy(wire, headBytes);
  return { wire, body: wire.subarray(headBytes) };
}

/** Documents larger than this are gzipped at level 6, not 9 (see gzipped). */
const GZIP_9_MAX_BYTES = 64 * 1024;

/**
 * The document's gzip form, compressed once per document (when it enters the cache) and kept with
 * it, so no request ever pays for compression. Level 9, as `gzip -9` for nginx's gzip_static; a
 * document over 64 KiB (a package with hundreds of versions) gets level 6, because the first
 * request after each change waits for it: on a 1,000-version p2 document (491 KB) level 9 took
 * 7.2 ms at best and 26 ms at the median of 30 on a busy machine, level 6 4.4 and 10.7 ms, for
 * 2.6 % more bytes (65,804 against 64,142).
 */
export function gzipped(doc: RenderedDocument): { body: Buffer; etag: string; wire: Buffer } {
  if (!doc.gzip || !doc.gzipEtag || !doc.gzipWire) {
    const level = doc.body.length > GZIP_9_MAX_BYTES ? 6 : 9;
    // A strong ETag names one representation (RFC 9110 8.8.3): the gzip form gets its own.
    const etag = `${doc.etag.slice(0, -1)}-gz"`;
    const { wire, body } = onWire(etag, zlib.gzipSync(doc.body, { level }), true);
    doc.gzip = body;
    doc.gzipEtag = etag;
    doc.gzipWire = wire;
  }
  return { body: doc.gzip, etag: doc.gzipEtag, wire: doc.gzipWire };
}

/** The document's identity body on the wire (made here for documents made without render). */
export function identityWire(doc: RenderedDocument): Buffer {
  if (!doc.wire) {
    const { wire, body } = onWire(doc.etag, doc.body, false);
    doc.wire = wire;
    doc.body = body;
  }
  return doc.wire;
}

/**
 * Whether an Accept-Encoding header accepts gzip. Composer (curl) sends a plain list such as
 * `deflate, gzip, br, zstd`; weights are read only when the header has any.
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined) return false;
  if (!/q=/i.test(header)) return /gzip|\*/i.test(header);
  let star = false;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    const accepted = q === undefined || Number(q.slice(2)) > 0;
    if (name === 'gzip' || name === 'x-gzip') return accepted;
    if (name === '*') star = accepted;
  }
  return star;
}

/** The package a p2 answer is about, and its own generation when computed. */
export interface PackageMark {
  tenantId: string;
  name: string;
  generation: number;
}

interface Entry extends RenderedDocument {
  generation: number;
  /** A p2 answer dies with its package's own generation too (an advisory about it). */
  pkg?: PackageMark;
  /** The upstream copy (a proxied document) expires then. */
  validUntil: number;
}

export function render(body: unknown, lastModified: Date): RenderedDocument {
  const bytes = Buffer.from(JSON.stringify(body));
  const etag = `"${crypto.createHash('sha1').update(bytes).digest('hex')}"`;
  const lastModifiedMs = Math.floor(lastModified.getTime() / 1000) * 1000;
  return {
    ...onWire(etag, bytes, false),
    etag,
    lastModifiedMs,
    lastModified: new Date(lastModifiedMs).toUTCString(),
  };
}

/** True when the client's cached copy (If-None-Match, else If-Modified-Since) is current. */
export function isFresh(
  ifNoneMatch: string | undefined,
  ifModifiedSince: string | undefined,
  doc: RenderedDocument,
): boolean {
  // `*` matches any current representation (RFC 9110 13.1.2).
  // Either representation's ETag validates: both encode the same document.
  if (ifNoneMatch)
    return ifNoneMatch.split(',').some((t) => {
      const tag = t.trim();
      return tag === '*' || tag.replace(/^W\//, '').replace(/-gz"$/, '"') === doc.etag;
    });
  if (ifModifiedSince === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  return !Number.isNaN(since) && since >= doc.lastModifiedMs;
}

/**
 * Rendered root and p2 answers, cached by audience: every token whose customer sees exactly the
 * same thing (the same packages under the same constraints, frozen versions, package scopes and
 * public grants) shares one audience, and the audience holds the answers. So a repeated request
 * (the common case: every `composer update` of every customer) touches neither the database nor
 * the JSON encoder, and memory grows with the distinct audiences, not with the tokens.
 * Entries die with the tenant's cache generation, which every relevant change moves, and a p2
 * answer also with its package's own generation, which only changes about that package move.
 *
 * Bounds: at most MAX_TOKENS known tokens (a digest and a reference each), MAX_AUDIENCES
 * audiences and MAX_DOCUMENTS answers over all of them; past a bound, the cache starts again.
 */
export class ResponseCache {
  /** tenant -> token digest -> the token's audience. */
  private readonly tokens = new Map<string, Map<string, TokenEntry>>();
  private tokenCount = 0;
  /** tenant\nfingerprint -> audience. */
  private readonly audiences = new Map<string, Audience>();
  private documentCount = 0;

  constructor(private readonly generations: CacheGeneration) {}

  /** How much is held: known tokens, audiences and answers (metrics and tests). */
  size(): { tokens: number; audiences: number; documents: number } {
    return {
      tokens: this.tokenCount,
      audiences: this.audiences.size,
      documents: this.documentCount,
    };
  }

  /** The cached answer at `path` for a token, or null when anything it depends on moved. */
  hit(tenantId: string, secretDigest: string, path: string): RenderedDocument | null {
    const audience = this.audienceOf(tenantId, secretDigest);
    return audience ? this.get(audience, path) : null;
  }

  /** The token's audience while its generation and its validity last. */
  audienceOf(tenantId: string, secretDigest: string): Audience | null {
    const byToken = this.tokens.get(tenantId);
    const entry = byToken?.get(secretDigest);
    if (!entry) return null;
    if (entry.generation !== this.generations.current(tenantId) || Date.now() >= entry.validUntil) {
      byToken!.delete(secretDigest);
      this.tokenCount -= 1;
      return null;
    }
    return entry.audience;
  }

  /**
   * Records the audience a token belongs to, computed at `generation` (read before the access
   * it was computed from); `validUntil` holds the token's and the customer's expiry times.
   */
  remember(
    tenantId: string,
    secretDigest: string,
    fingerprint: string,
    generation: number,
    validUntil: (string | null)[],
  ): Audience {
    if (this.tokenCount >= MAX_TOKENS) {
      this.tokens.clear();
      this.tokenCount = 0;
    }
    if (this.audiences.size >= MAX_AUDIENCES) this.forgetAll();
    const key = `${tenantId}\n${fingerprint}`;
    let audience = this.audiences.get(key);
    if (!audience || audience.generation !== generation) {
      if (audience) this.documentCount -= audience.documents.size;
      audience = { tenantId, generation, documents: new Map<string, Entry>() };
      this.audiences.set(key, audience);
    }
    let byToken = this.tokens.get(tenantId);
    if (!byToken) this.tokens.set(tenantId, (byToken = new Map<string, TokenEntry>()));
    if (!byToken.has(secretDigest)) this.tokenCount += 1;
    byToken.set(secretDigest, { audience, generation, validUntil: earliest(validUntil) });
    return audience;
  }

  get(audience: Audience, path: string): RenderedDocument | null {
    const entry = audience.documents.get(path);
    if (!entry) return null;
    const { tenantId } = audience;
    if (
      entry.generation !== this.generations.current(tenantId) ||
      Date.now() >= entry.validUntil ||
      (entry.pkg &&
        entry.pkg.generation !== this.generations.packageCurrent(tenantId, entry.pkg.name))
    ) {
      audience.documents.delete(path);
      this.documentCount -= 1;
      return null;
    }
    return entry;
  }

  /** The generation to stamp on an answer computed from here on. */
  generation(tenantId: string): number {
    return this.generations.current(tenantId);
  }

  /** The package's own generation, to mark a p2 answer computed from here on. */
  packageMark(tenantId: string, name: string): PackageMark {
    return { tenantId, name, generation: this.generations.packageCurrent(tenantId, name) };
  }

  set(
    audience: Audience,
    generation: number,
    path: string,
    doc: RenderedDocument,
    validUntil: (string | null)[],
    pkg?: PackageMark,
  ): void {
    if (this.documentCount >= MAX_DOCUMENTS) this.forgetAll();
    if (!audience.documents.has(path)) this.documentCount += 1;
    // Compressed on `doc` before the entry copies it: the caller answers the request that
    // computed it with `doc`, which then finds the gzip made, not compressed a second time.
    gzipped(doc);
    const entry: Entry = { ...doc, generation, pkg, validUntil: earliest(validUntil) };
    audience.documents.set(path, entry);
  }

  /** Tokens point into audiences: both tables start again together. */
  private forgetAll(): void {
    this.audiences.clear();
    this.tokens.clear();
    this.tokenCount = 0;
    this.documentCount = 0;
  }
}

/** What the tokens of one audience share: their answers by canonical request path. */
export interface Audience {
  tenantId: string;
  generation: number;
  documents: Map<string, Entry>;
}

interface TokenEntry {
  audience: Audience;
  generation: number;
  /** The token or customer access expires then; past it the audience must be recomputed. */
  validUntil: number;
}

const MAX_TOKENS = 200_000;
const MAX_DOCUMENTS = 50_000;
const MAX_AUDIENCES = 100_000;

/** The earliest of some ISO times, in ms (infinity when none is set). */
function earliest(times: (string | null)[]): number {
  let min = Number.POSITIVE_INFINITY;
  for (const iso of times) {
    const t = iso ? Date.parse(iso) : Number.NaN;
    if (t < min) min = t;
  }
  return min;
}
