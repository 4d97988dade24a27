import type { Readable } from 'node:stream';
import type { Deps } from '../../context.js';
import { upstreamError } from '../../errors.js';
import type { UpstreamHealth } from './health.js';
import * as store from './store.js';
import type { ProxyVersionRow } from './store.js';
import { UpstreamFailure } from './upstream.js';
import type { UpstreamClient } from './upstream.js';

/** Where a proxied archive is kept: a key prefix of its own, apart from private archives. */
export function archiveKey(row: ProxyVersionRow): string {
  const safe = (s: string) => encodeURIComponent(s);
  return `proxy/${safe(row.tenant_id)}/${row.name}/${safe(row.version_normalized)}/${row.reference}.zip`;
}

/**
 * Proxied archives: fetched from the upstream once (streamed into storage, never held whole),
 * then served from storage. Concurrent first requests for one archive share one fetch.
 */
export class ArchiveFetcher {
  private readonly inflight = new Map<string, Promise<void>>();

  constructor(
    private readonly deps: Deps,
    private readonly upstream: UpstreamClient,
    private readonly health: UpstreamHealth,
  ) {}

  async get(tenantId: string, row: ProxyVersionRow): Promise<{ body: Readable; size: number }> {
    const db = this.deps.db;
    if (row.archive_key) {
      const kept = await this.deps.storage.getStream(row.archive_key);
      if (kept) {
        await store.count(db, tenantId, 'archive_hits');
        return kept;
      }
    }
    const key = archiveKey(row);
    let running = this.inflight.get(key);
    if (!running) {
      running = this.fetch(tenantId, row, key).finally(() => this.inflight.delete(key));
      this.inflight.set(key, running);
    }
    await running;
    const fetched = await this.deps.storage.getStream(key);
    if (!fetched) throw upstreamError(`The archive of ${row.name} ${row.version} was not kept`);
    return fetched;
  }

  private async fetch(tenantId: string, row: ProxyVersionRow, key: string): Promise<void> {
    const db = this.deps.db;
    try {
      const download = await this.upstream.archive(row.dist_url);
      let written;
      try {
        written = await this.deps.storage.putStream(key, download.body);
      } finally {
        download.done();
      }
      if (row.shasum && written.sha1.toLowerCase() !== row.shasum.toLowerCase()) {
        await this.deps.storage.delete(key);
        throw new UpstreamFailure(
          'invalid',
          `the archive's SHA-1 is not the shasum of the metadata`,
        );
      }
      await store.setArchive(db, row, key, written.size);
      await this.health.succeeded(tenantId);
      await store.count(db, tenantId, 'archive_misses');
      await store.count(db, tenantId, 'bytes_from_upstream', written.size);
    } catch (err) {
      // Storage and database failures are ours, not the upstream's: they stay internal errors.
      if (!(err instanceof UpstreamFailure)) throw err;
      const failure = err;
      await store.count(db, tenantId, 'upstream_errors');
      await this.health.failed(tenantId, failure, row.name);
      throw upstreamError(
        `The archive of ${row.name} ${row.version} could not be fetched: ${failure.message}`,
      );
    }
  }
}
