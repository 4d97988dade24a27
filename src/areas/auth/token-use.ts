import type { Db } from '../../infra/db/connection.js';
import { forTenant } from '../../infra/db/tenant-scope.js';
import type { Logger } from '../../infra/logger.js';

/** How often recorded uses are written; a process killed between writes loses at most this much. */
const FLUSH_MS = 1000;
/** Token ids per UPDATE. */
const CHUNK = 512;

/**
 * The ids padded to the next power of two by repeating the last: the UPDATE then has ten SQL
 * texts, not one per count, and SQLite keeps a prepared statement per text (connection.ts).
 */
function padded(ids: string[]): string[] {
  let size = 1;
  while (size < ids.length) size *= 2;
  return ids.concat(Array<string>(size - ids.length).fill(ids[ids.length - 1]!));
}

type TokenTable = 'customer_tokens' | 'team_tokens';

/**
 * When tokens were last used, written once a second per tenant and table (one UPDATE for all the
 * tokens used in that second) instead of one write per token and minute on the request's path:
 * on PostgreSQL that write's commit competed with the next requests and cost a new token's first
 * answer 0.6 ms. last_used_at is kept to the minute and is best-effort: a batch stores its latest
 * use, so a value may be up to a second later than the token's own use. `flush` writes what is
 * pending (admin reads and shutdown call it). Same shape as the proxy's ProxyHitCounter.
 */
export class TokenUseRecorder {
  private pending = new Map<string, { tenantId: string; table: TokenTable; ids: Set<string> }>();
  private latest = 0;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly log: Pick<Logger, 'warn'>,
  ) {}

  record(tenantId: string, table: TokenTable, id: string, at: number): void {
    const key = `${tenantId}\0${table}`;
    let entry = this.pending.get(key);
    if (!entry) {
      entry = { tenantId, table, ids: new Set() };
      this.pending.set(key, entry);
    }
    entry.ids.add(id);
    this.latest = Math.max(this.latest, at);
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
  }

  /** Writes the uses recorded so far; resolves when they are written (or failed and logged). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.size === 0) return this.flushing;
    const batch = [...this.pending.values()];
    const at = new Date(this.latest).toISOString();
    this.pending = new Map();
    this.latest = 0;
    this.flushing = this.flushing.then(async () => {
      for (const { tenantId, table, ids } of batch) {
        const all = [...ids];
        for (let k = 0; k < all.length; k += CHUNK) {
          try {
            await forTenant(this.db, tenantId)
              .updateTable(table)
              .set({ last_used_at: at })
              .where('tenant_id', '=', tenantId)
              .where('id', 'in', padded(all.slice(k, k + CHUNK)))
              .execute();
          } catch (err) {
            this.log.warn({ err, table, tokens: all.length }, 'token last_used_at not recorded');
          }
        }
      }
    });
    return this.flushing;
  }
}
