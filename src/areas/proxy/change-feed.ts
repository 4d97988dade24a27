import type { Deps } from '../../context.js';
import type { Db } from '../../infra/db/connection.js';
import { forTenant } from '../../infra/db/tenant-scope.js';
import type { UpstreamClient } from './upstream.js';

/**
 * Following the upstream's change log (docs/proxy.md, "Change log"): when the upstream's
 * packages.json names a `metadata-changes-url` (packagist.org's format, which Packyard serves
 * too), the proxy asks it what changed since its last look and marks only those kept documents
 * for revalidation; the others are served without asking the upstream, past the TTL. Without a
 * change log, or while it fails, every document is revalidated after the TTL as before.
 *
 * The state is one `settings` row per tenant, so every node shares it.
 */
const STATE_KEY = 'proxy.change_feed';
/** An upstream without a change log is asked again after this long. */
const ROOT_RECHECK_MS = 60 * 60 * 1000;
/** The change log is read at most this often (and at most once per TTL, when that is shorter). */
const MAX_POLL_MS = 30_000;
/** A kept document marked for revalidation: its check time goes back to the epoch. */
const NEVER = new Date(0).toISOString();

interface FeedState {
  /** The change log's URL; null when the upstream has none. */
  url: string | null;
  /** The `timestamp` of the last answer: the next `since`. */
  since: number | null;
  polledAt: number;
  rootCheckedAt: number;
}

async function readState(db: Db, tenantId: string): Promise<FeedState | null> {
  const row = await forTenant(db, tenantId)
    .selectFrom('settings')
    .select('value')
    .where('tenant_id', '=', tenantId)
    .where('key', '=', STATE_KEY)
    .executeTakeFirst();
  return row ? (JSON.parse(row.value) as FeedState) : null;
}

async function writeState(db: Db, tenantId: string, state: FeedState): Promise<void> {
  const value = JSON.stringify(state);
  await forTenant(db, tenantId)
    .insertInto('settings')
    .values({ tenant_id: tenantId, key: STATE_KEY, value })
    .onConflict((oc) => oc.columns(['tenant_id', 'key']).doUpdateSet({ value }))
    .execute();
}

/** Marks kept documents for revalidation: the named ones (`name` or `name~dev`), or all. */
async function markStale(db: Db, tenantId: string, names: ReadonlySet<string> | null) {
  const scoped = forTenant(db, tenantId);
  if (names === null) {
    await scoped
      .updateTable('proxy_documents')
      .set({ checked_at: NEVER })
      .where('tenant_id', '=', tenantId)
      .execute();
    return;
  }
  const tags = new Set<string>();
  const dev = new Set<string>();
  for (const entry of names) {
    if (entry.endsWith('~dev')) dev.add(entry.slice(0, -'~dev'.length).toLowerCase());
    else tags.add(entry.toLowerCase());
  }
  for (const [kind, set] of [
    ['tags', tags],
    ['dev', dev],
  ] as const) {
    const list = [...set];
    for (let i = 0; i < list.length; i += 500) {
      await scoped
        .updateTable('proxy_documents')
        .set({ checked_at: NEVER })
        .where('tenant_id', '=', tenantId)
        .where('kind', '=', kind)
        .where('name', 'in', list.slice(i, i + 500))
        .execute();
    }
  }
}

const isChanges = (body: unknown): body is { actions: unknown[]; timestamp: number } =>
  typeof body === 'object' &&
  body !== null &&
  Array.isArray((body as { actions?: unknown }).actions) &&
  Number.isSafeInteger((body as { timestamp?: unknown }).timestamp);

export class UpstreamChangeFeed {
  private readonly polling = new Map<string, Promise<boolean>>();
  private readonly pollMs: number;

  constructor(
    private readonly deps: Pick<Deps, 'db' | 'log'>,
    private readonly upstream: UpstreamClient,
    ttlMs: number,
  ) {
    this.pollMs = Math.min(ttlMs, MAX_POLL_MS);
  }

  /** How long an answer of a followed document may be reused before the log is read again. */
  get reuseMs(): number {
    return this.pollMs;
  }

  /**
   * Reads the change log when due (one read per tenant at a time in this process) and says
   * whether the kept documents it did not mark may be served without asking the upstream.
   */
  following(tenantId: string): Promise<boolean> {
    const running = this.polling.get(tenantId);
    if (running) return running;
    const run = this.poll(tenantId)
      .catch((err: unknown) => {
        this.deps.log.warn({ err, tenant: tenantId }, 'proxy: the upstream change log failed');
        return false;
      })
      .finally(() => this.polling.delete(tenantId));
    this.polling.set(tenantId, run);
    return run;
  }

  private async poll(tenantId: string): Promise<boolean> {
    const { db } = this.deps;
    const now = Date.now();
    const state = await readState(db, tenantId);
    if (state?.url && state.since !== null) {
      if (now - state.polledAt < this.pollMs) return true;
      const url = new URL(state.url);
      url.searchParams.set('since', String(state.since));
      const answer = await this.upstream.json(url);
      if (answer.status !== 200 || !isChanges(answer.body)) return false;
      const names = new Set<string>();
      let resync = false;
      for (const action of answer.body.actions) {
        const a = action as { type?: unknown; package?: unknown };
        if (a.type === 'resync') resync = true;
        else if (typeof a.package === 'string') {
          names.add(a.package);
          // A deleted package: both of its documents are to be asked again (and answer 404).
          if (a.type === 'delete') names.add(`${a.package}~dev`);
        }
      }
      await markStale(db, tenantId, resync ? null : names);
      await writeState(db, tenantId, { ...state, since: answer.body.timestamp, polledAt: now });
      return true;
    }
    if (state && now - state.rootCheckedAt < ROOT_RECHECK_MS) return false;
    const url = await this.discover();
    const since = url ? await this.startingPoint(url) : null;
    if (!url || since === null) {
      await writeState(db, tenantId, { url: null, since: null, polledAt: 0, rootCheckedAt: now });
      return false;
    }
    // What is kept may have changed before the log was followed: everything is asked once more.
    await markStale(db, tenantId, null);
    await writeState(db, tenantId, { url: url.href, since, polledAt: now, rootCheckedAt: now });
    return true;
  }

  /** The upstream root's `metadata-changes-url`, resolved like Composer resolves root URLs. */
  private async discover(): Promise<URL | null> {
    const base = this.upstream.base;
    const root = new URL(`${base.pathname.replace(/\/$/, '')}/packages.json`, base);
    const answer = await this.upstream.json(root);
    const value = (answer.body as Record<string, unknown> | null)?.['metadata-changes-url'];
    if (answer.status !== 200 || typeof value !== 'string' || value === '') return null;
    const url = new URL(value, base);
    return url.origin === base.origin ? url : null;
  }

  /** packagist.org answers a request without `since` with the `timestamp` to start from. */
  private async startingPoint(url: URL): Promise<number | null> {
    const answer = await this.upstream.json(url);
    const timestamp = (answer.body as { timestamp?: unknown } | null)?.timestamp;
    return typeof timestamp === 'number' && Number.isSafeInteger(timestamp) ? timestamp : null;
  }
}
