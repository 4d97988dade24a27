import crypto from 'node:crypto';
import zlib from 'node:zlib';

/**
 * A metadata document as it is answered (docs/composer.md, "Caching and archives"): its bytes in
 * each encoding with their fixed header lines, its validators, and the rule for conditional
 * requests. Made once per document; response-cache.ts keeps them by audience.
 */

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
