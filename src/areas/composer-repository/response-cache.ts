import type { CacheGeneration } from '../../infra/cache-generation.js';
import { gzipped } from './rendered-document.js';
import type { PackageMark, RenderedDocument } from './rendered-document.js';

interface Entry extends RenderedDocument {
  generation: number;
  /** A p2 answer dies with its package's own generation too (an advisory about it). */
  pkg?: PackageMark;
  /** The upstream copy (a proxied document) expires then. */
  validUntil: number;
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
