import type { Deps } from '../../context.js';
import { forTenant } from '../../infra/db/tenant-scope.js';
import type { CustomerPrincipal } from '../auth/service.js';

/**
 * The change log for mirrors (docs/composer.md, "Change log"): packagist.org's
 * `metadata-changes-url` format, read from the event outbox and cut to one token's audience.
 * `since` and `timestamp` count 1/10,000 s since the epoch (packagist's unit); an action's `time`
 * is in seconds.
 */
export interface ChangeAction {
  type: 'update' | 'delete' | 'resync';
  package: string;
  time: number;
}

export interface Changes {
  actions: ChangeAction[];
  timestamp: number;
}

/** Units of `since`/`timestamp` per millisecond. */
const UNITS_PER_MS = 10;
/**
 * The answer's `timestamp` trails the clock by this much, so the next request reads again the
 * last seconds: an event stamped just before a read and committed just after it (or on a node
 * whose clock is a little behind) is still seen. Actions seen twice are harmless: a mirror
 * re-reads a document and gets a 304.
 */
const OVERLAP_MS = 5_000;
/** More events than this since `since`: the mirror is better served by a resync. */
const MAX_EVENTS = 10_000;

/** The event types that change a package's documents. */
const PACKAGE_TYPES = [
  'package.created',
  'package.synced',
  'version.published',
  'version.yanked',
  'version.unyanked',
  'version.deprecated',
  'vulnerability.detected',
] as const;

/** The event types that change what one customer sees (`data.customer_id`). */
const ACCESS_TYPES = ['access.granted', 'access.revoked', 'customer.status_changed'] as const;

const isDev = (version: string) => /^dev-|[.-]dev$|\.x-dev$/i.test(version);

/** What `since` may be: a positive whole number. */
export const SINCE_RE = /^[1-9]\d{0,15}$/;

export function nowTimestamp(nowMs = Date.now()): number {
  return (nowMs - OVERLAP_MS) * UNITS_PER_MS;
}

/** The tenant's events a token's change log is made of, and how far back they are kept. */
export class ChangeLog {
  constructor(
    private readonly deps: Pick<Deps, 'db' | 'config'>,
    /** The names the principal may install (ComposerService.availablePackages). */
    private readonly visibleTo: (principal: CustomerPrincipal) => Promise<string[]>,
    /** Events older than this many days are gone (EVENT_RETENTION_DAYS). */
    private readonly retentionDays: number,
  ) {}

  async changes(principal: CustomerPrincipal, since: number, nowMs = Date.now()): Promise<Changes> {
    const timestamp = Math.max(since, nowTimestamp(nowMs));
    const resync = (): Changes => ({
      actions: [{ type: 'resync', package: '*', time: Math.floor(nowMs / 1000) }],
      timestamp,
    });
    const sinceMs = Math.floor(since / UNITS_PER_MS);
    // Older than what is kept: what happened in between is unknown (packagist answers the same).
    if (sinceMs < nowMs - this.retentionDays * 86_400_000) return resync();
    const { customer } = principal;
    const sinceIso = new Date(sinceMs).toISOString();
    if (await this.mustResync(customer.tenant_id, customer.id, sinceIso)) return resync();
    // Only the visible packages' events are read: another customer's churn costs nothing here.
    const visible = await this.visibleTo(principal);
    const rows = [];
    for (let i = 0; i < visible.length; i += 500) {
      rows.push(
        ...(await this.window(customer.tenant_id, sinceIso)
          .select(['id', 'type', 'package', 'data', 'created_at'])
          .where('type', 'in', [...PACKAGE_TYPES])
          .where('package', 'in', visible.slice(i, i + 500))
          .orderBy('id', 'asc')
          .limit(MAX_EVENTS + 1)
          .execute()),
      );
      if (rows.length > MAX_EVENTS) return resync();
    }
    rows.sort((a, b) => (a.id < b.id ? -1 : 1));
    const actions = new Map<string, ChangeAction>();
    const update = (name: string, time: number) => {
      actions.delete(name);
      actions.set(name, { type: 'update', package: name, time });
    };
    for (const row of rows) {
      const data = JSON.parse(row.data) as Record<string, unknown>;
      const time = Math.floor(Date.parse(row.created_at) / 1000);
      const name = row.package!;
      if (row.type === 'package.synced' && data.status !== 'ok') continue;
      if (row.type.startsWith('version.')) {
        const version = typeof data.version === 'string' ? data.version : '';
        update(isDev(version) ? `${name}~dev` : name, time);
      } else if (row.type === 'vulnerability.detected') {
        // Advisories are embedded in the tagged versions' document only.
        update(name, time);
      } else {
        update(name, time);
        update(`${name}~dev`, time);
      }
    }
    return { actions: [...actions.values()], timestamp };
  }

  /** The tenant's events since `sinceIso` (the events_tenant_created index). */
  private window(tenantId: string, sinceIso: string) {
    return forTenant(this.deps.db, tenantId)
      .selectFrom('events')
      .where('tenant_id', '=', tenantId)
      .where('created_at', '>=', sinceIso);
  }

  /**
   * Whether the mirror must read everything again: its own customer's grants or status changed
   * (which packages it sees is to be read again, all of them), or a package was deleted (who
   * could see it is gone with its grants, so no name is shown to anyone; deletions are rare).
   */
  private async mustResync(tenantId: string, customerId: string, sinceIso: string) {
    const deleted = await this.window(tenantId, sinceIso)
      .select('id')
      .where('type', '=', 'package.deleted')
      .limit(1)
      .executeTakeFirst();
    if (deleted) return true;
    // The JSON text holds `"customer_id":"<id>"`; LIKE narrows, the parsed value decides.
    const own = await this.window(tenantId, sinceIso)
      .select('data')
      .where('type', 'in', [...ACCESS_TYPES])
      .where('data', 'like', `%${JSON.stringify(customerId).slice(1, -1)}%`)
      .execute();
    return own.some(
      (r) => (JSON.parse(r.data) as { customer_id?: unknown }).customer_id === customerId,
    );
  }
}
