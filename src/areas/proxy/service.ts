import type { Readable } from 'node:stream';
import type { Deps } from '../../context.js';
import { maskedUpstreamUrl } from '../../config/proxy.js';
import { hasFeature } from '../../editions.js';
import { notFound, upstreamError } from '../../errors.js';
import { normalizeVersion } from '../../composer/semver/index.js';
import { render } from '../composer-repository/rendered-document.js';
import type { RenderedDocument } from '../composer-repository/rendered-document.js';
import type { PackageAdvisories } from '../composer-repository/service.js';
import { readP2Document } from './minifier.js';
import type { UpstreamEntry } from './minifier.js';
import {
  isPackageName,
  isReference,
  keptEntries,
  servedEntries,
  versionRows,
} from './documents.js';
import { UpstreamHealth } from './health.js';
import * as store from './store.js';
import { ProxyHitCounter } from './hit-counter.js';
import type { DocumentRow, ProxyKind } from './store.js';
import { UpstreamChangeFeed } from './change-feed.js';
import { UpstreamClient, UpstreamFailure } from './upstream.js';
import { ArchiveFetcher } from './archives.js';

/** A rendered public document and until when it may be served without asking the database. */
export interface PublicDocument {
  doc: RenderedDocument;
  validUntilMs: number;
}

interface Memo extends PublicDocument {
  generation: number;
  /** The package's own generation (an advisory about it moves it). */
  packageGeneration: number;
}

/** A stale document is served this long before the upstream is tried again. */
const RETRY_AFTER_FAILURE_MS = 30_000;

/** The second after `previous` or now, whichever is later: Last-Modified only moves forward. */
function nextChange(previous: string | undefined): string {
  const now = Math.floor(Date.now() / 1000) * 1000;
  const after = previous ? Math.floor(Date.parse(previous) / 1000) * 1000 + 1000 : 0;
  return new Date(Math.max(now, after)).toISOString();
}

/**
 * The lazy proxy of a public Composer repository (docs/proxy.md): a public name is fetched on
 * first request, kept in the database (every node shares it), revalidated with
 * If-Modified-Since after the TTL, and served stale while the upstream fails.
 */
export class ProxyService {
  readonly upstream: UpstreamClient | null;
  readonly health: UpstreamHealth | null;
  readonly archives: ArchiveFetcher | null;
  /** The upstream's change log, followed when it has one (change-feed.ts). */
  readonly feed: UpstreamChangeFeed | null;
  /** Rendered public documents per tenant: every customer of a tenant gets the same bytes. */
  private readonly memo = new Map<string, Memo>();
  private readonly refreshing = new Map<string, Promise<DocumentRow | undefined>>();
  /** Called after a fetch changed the kept versions of `name` (the advisory scan listens). */
  onKept: ((tenantId: string, name: string) => void) | null = null;
  /** The advisories each public p2 document carries (areas/advisories), when the edition has them. */
  advisories: PackageAdvisories | null = null;

  /** Metadata cache hits, written in batches (hit-counter.ts). */
  readonly hits: ProxyHitCounter;

  constructor(private readonly deps: Deps) {
    this.hits = new ProxyHitCounter(deps.db, deps.log);
    const settings = deps.config.proxy;
    const on = settings.upstreamUrl !== null && hasFeature(deps.config.edition, 'proxy');
    this.upstream = on
      ? new UpstreamClient({
          ...settings,
          upstreamUrl: settings.upstreamUrl!,
          blockPrivateHosts: deps.config.blockPrivateGitHosts,
        })
      : null;
    this.health = on ? new UpstreamHealth(deps, maskedUpstreamUrl(settings)!) : null;
    this.archives =
      this.upstream && this.health ? new ArchiveFetcher(deps, this.upstream, this.health) : null;
    this.feed = this.upstream
      ? new UpstreamChangeFeed(deps, this.upstream, settings.metadataTtlSeconds * 1000)
      : null;
  }

  get enabled(): boolean {
    return this.upstream !== null;
  }

  /** Makes every cached Composer answer of the tenant forget: the ONE place the proxy invalidates. */
  async changed(tenantId: string): Promise<void> {
    for (const key of this.memo.keys()) if (key.startsWith(`${tenantId}\n`)) this.memo.delete(key);
    await this.deps.generations.accessChanged(tenantId);
  }

  /** The public p2 document of `name`, as every customer of the tenant sees it. */
  async document(
    tenantId: string,
    name: string,
    kind: ProxyKind,
    /** The origin of the tenant's absolute URLs (its own host in Cloud). */
    origin: string = this.deps.config.baseUrl,
  ): Promise<PublicDocument> {
    if (!this.upstream || !isPackageName(name)) throw notFound(`Package ${name}`);
    const key = `${tenantId}\n${name}\n${kind}\n${origin}`;
    const generation = this.deps.generations.current(tenantId);
    const packageGeneration = this.deps.generations.packageCurrent(tenantId, name);
    const memo = this.memo.get(key);
    if (
      memo &&
      memo.generation === generation &&
      memo.packageGeneration === packageGeneration &&
      Date.now() < memo.validUntilMs
    ) {
      this.hits.hit(tenantId);
      return memo;
    }
    const frozen = await store.isFrozen(this.deps.db, tenantId, name);
    // Read before the kept row: a change the upstream's log names marks the row first.
    const followed = !frozen && this.feed ? await this.feed.following(tenantId) : false;
    let row = await store.findDocument(this.deps.db, tenantId, name, kind);
    const ttlMs = this.deps.config.proxy.metadataTtlSeconds * 1000;
    let validUntilMs = frozen ? Number.POSITIVE_INFINITY : 0;
    if (row && (frozen || Date.parse(row.checked_at) + ttlMs > Date.now())) {
      this.hits.hit(tenantId);
      validUntilMs = frozen ? validUntilMs : Date.parse(row.checked_at) + ttlMs;
    } else if (row && followed && Date.parse(row.checked_at) > 0) {
      // Unchanged upstream since it was kept (change-feed.ts): no revalidation needed.
      this.hits.hit(tenantId);
      validUntilMs = Date.now() + this.feed!.reuseMs;
    } else if (frozen) {
      throw notFound(`Package ${name}${kind === 'dev' ? ' (branches)' : ''}`);
    } else {
      row = await this.refreshOnce(tenantId, name, kind, row);
      validUntilMs =
        row && Date.parse(row.checked_at) + ttlMs > Date.now()
          ? Date.parse(row.checked_at) + ttlMs
          : Date.now() + Math.min(ttlMs, RETRY_AFTER_FAILURE_MS);
    }
    if (!row || row.status !== 'ok') throw notFound(`Package ${name}`);
    const entries = JSON.parse(row.entries) as UpstreamEntry[];
    const body: Record<string, unknown> = {
      packages: { [name]: servedEntries(name, entries, origin) },
    };
    // A new or changed advisory moves Last-Modified, so If-Modified-Since never keeps it out.
    let changedMs = Date.parse(row.changed_at);
    if (this.advisories) {
      const advisories = await this.advisories.forPackage(tenantId, name, origin);
      body['security-advisories'] = advisories.records;
      changedMs = Math.max(
        changedMs,
        Math.ceil(advisories.changedMs / 1000) * 1000,
        await this.deps.generations.packageStampMs(tenantId, name),
      );
    }
    // Answers served again from the Composer response cache (and its fast path) count as hits too.
    const doc: RenderedDocument = {
      ...render(body, new Date(changedMs)),
      onServe: () => this.hits.hit(tenantId),
    };
    const out: Memo = { doc, validUntilMs, generation, packageGeneration };
    this.memo.set(key, out);
    return out;
  }

  /** One refresh per document at a time in this process; concurrent askers share it. */
  private refreshOnce(tenantId: string, name: string, kind: ProxyKind, row?: DocumentRow) {
    const key = `${tenantId}\n${name}\n${kind}`;
    const running = this.refreshing.get(key);
    if (running) return running;
    const run = this.refresh(tenantId, name, kind, row).finally(() => this.refreshing.delete(key));
    this.refreshing.set(key, run);
    return run;
  }

  private async refresh(
    tenantId: string,
    name: string,
    kind: ProxyKind,
    row: DocumentRow | undefined,
  ): Promise<DocumentRow | undefined> {
    const db = this.deps.db;
    const now = new Date().toISOString();
    const file = `${name}${kind === 'dev' ? '~dev' : ''}.json`;
    try {
      const since = row?.status === 'ok' ? row.upstream_last_modified : null;
      const answer = await this.upstream!.document(file, since);
      await this.health!.succeeded(tenantId);
      if (answer.status === 'not-modified' && row) {
        await store.touchDocument(db, tenantId, name, kind, now);
        await store.count(db, tenantId, 'metadata_hits');
        return { ...row, checked_at: now };
      }
      await store.count(db, tenantId, 'metadata_misses');
      let entries: UpstreamEntry[] = [];
      let lastModified: string | null = null;
      if (answer.status === 'ok') {
        await store.count(db, tenantId, 'bytes_from_upstream', answer.bytes);
        let list: UpstreamEntry[] | undefined;
        try {
          list = readP2Document(answer.body).get(name);
        } catch (err) {
          throw new UpstreamFailure(
            'invalid',
            `the upstream's ${file} is not a p2 document: ${(err as Error).message}`,
          );
        }
        if (!list)
          throw new UpstreamFailure('invalid', `the upstream's ${file} does not hold ${name}`);
        entries = keptEntries(name, list);
        lastModified = answer.lastModified;
      }
      const status = answer.status === 'ok' ? 'ok' : 'missing';
      const text = JSON.stringify(entries);
      const changed = !row || row.status !== status || row.entries !== text;
      const next: DocumentRow = {
        tenant_id: tenantId,
        name,
        kind,
        status,
        entries: text,
        upstream_last_modified: lastModified,
        checked_at: now,
        changed_at: changed ? nextChange(row?.changed_at) : row.changed_at,
      };
      await db.transaction().execute(async (trx) => {
        await store.saveDocument(trx, next);
        await store.keepVersions(trx, versionRows(tenantId, name, entries));
      });
      if (changed && row) await this.changed(tenantId);
      if (changed && status === 'ok') this.onKept?.(tenantId, name);
      return next;
    } catch (err) {
      const failure =
        err instanceof UpstreamFailure
          ? err
          : new UpstreamFailure('invalid', (err as Error).message);
      await store.count(db, tenantId, 'upstream_errors');
      await this.health!.failed(tenantId, failure, name);
      if (row) {
        if (row.status === 'ok') await store.count(db, tenantId, 'stale_served');
        return row;
      }
      throw upstreamError(`The upstream failed for ${name}: ${failure.message}`);
    }
  }

  /**
   * The archive of a version held in the kept metadata, fetched upstream once; anything not
   * in the kept metadata is 404 without an upstream request.
   */
  async archive(
    tenantId: string,
    name: string,
    version: string,
    reference: string,
  ): Promise<{ body: Readable; size: number; normalized: string }> {
    if (!this.archives || !isPackageName(name) || !isReference(reference)) {
      throw notFound(`Archive of ${name}`);
    }
    const find = (v: string) => store.findVersion(this.deps.db, tenantId, name, v, reference);
    let row = await find(version);
    if (!row) {
      try {
        const normalized = normalizeVersion(version);
        if (normalized !== version) row = await find(normalized);
      } catch {
        // Not a version at all: nothing kept can match it.
      }
    }
    if (!row) throw notFound(`Version ${version} (${reference}) of ${name}`);
    const stored = await this.archives.get(tenantId, row);
    return { ...stored, normalized: row.version_normalized };
  }
}
