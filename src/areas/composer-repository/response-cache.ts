import crypto from 'node:crypto';
import type { CacheGeneration } from '../../infra/cache-generation.js';

/** A rendered metadata answer: what the route sends, and what makes it conditional. */
export interface RenderedDocument {
  /** The encoded body, ready for the socket. */
  body: Buffer;
  etag: string;
  /** Milliseconds, whole seconds (HTTP dates have no finer precision). */
  lastModifiedMs: number;
  /** The Last-Modified header value. */
  lastModified: string;
  /** Called each time the cached answer is served again (the proxy counts its cache hits). */
  onServe?: () => void;
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
  /** The token or customer access expires then; past it the answer must be recomputed. */
  validUntil: number;
}

const MAX_ENTRIES = 50_000;

export function render(body: unknown, lastModified: Date): RenderedDocument {
  const bytes = Buffer.from(JSON.stringify(body));
  const etag = `"${crypto.createHash('sha1').update(bytes).digest('hex')}"`;
  const lastModifiedMs = Math.floor(lastModified.getTime() / 1000) * 1000;
  return {
    body: bytes,
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
  if (ifNoneMatch)
    return ifNoneMatch
      .split(',')
      .some((t) => t.trim() === '*' || t.trim().replace(/^W\//, '') === doc.etag);
  if (ifModifiedSince === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  return !Number.isNaN(since) && since >= doc.lastModifiedMs;
}

/**
 * Rendered root and p2 answers per token, so a repeated request (the common case: every
 * `composer update` of every customer) touches neither the database nor the JSON encoder.
 * Entries die with the tenant's cache generation, which every relevant change moves, and a p2
 * answer also with its package's own generation, which only changes about that package move.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly generations: CacheGeneration) {}

  static key(tenantId: string, secretDigest: string, what: string): string {
    return `${tenantId}\n${secretDigest}\n${what}`;
  }

  get(tenantId: string, key: string): RenderedDocument | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (
      entry.generation !== this.generations.current(tenantId) ||
      Date.now() >= entry.validUntil ||
      (entry.pkg &&
        entry.pkg.generation !== this.generations.packageCurrent(tenantId, entry.pkg.name))
    ) {
      this.entries.delete(key);
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
    generation: number,
    key: string,
    doc: RenderedDocument,
    validUntil: (string | null)[],
    pkg?: PackageMark,
  ): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    const limits = validUntil
      .map((iso) => (iso ? Date.parse(iso) : Number.NaN))
      .filter((t) => !Number.isNaN(t));
    this.entries.set(key, {
      ...doc,
      generation,
      pkg,
      validUntil: limits.length > 0 ? Math.min(...limits) : Number.POSITIVE_INFINITY,
    });
  }
}
