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

/** The event types that change what a customer's Composer sees. */
const CHANGE_TYPES = [
  'package.created',
  'package.deleted',
  'package.synced',
  'version.published',
  'version.yanked',
  'version.unyanked',
  'version.deprecated',
  'vulnerability.detected',
  'access.granted',
  'access.revoked',
  'customer.status_changed',
] as const;

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
    const tenantId = customer.tenant_id;
    const rows = await forTenant(this.deps.db, tenantId)
      .selectFrom('events')
      .select(['type', 'package', 'data', 'created_at'])
      .where('tenant_id', '=', tenantId)
      .where('created_at', '>=', new Date(sinceMs).toISOString())
      .where('type', 'in', [...CHANGE_TYPES])
      .orderBy('id', 'asc')
      .limit(MAX_EVENTS + 1)
      .execute();
    if (rows.length > MAX_EVENTS) return resync();
    const visible = new Set(await this.visibleTo(principal));
    const actions = new Map<string, ChangeAction>();
    const update = (name: string, time: number) => {
      actions.delete(name);
      actions.set(name, { type: 'update', package: name, time });
    };
    for (const row of rows) {
      const data = JSON.parse(row.data) as Record<string, unknown>;
      const time = Math.floor(Date.parse(row.created_at) / 1000);
      switch (row.type) {
        case 'access.granted':
        case 'access.revoked':
        case 'customer.status_changed':
          // Its own access changed: which packages it sees is to be read again, all of them.
          if (data.customer_id === customer.id) return resync();
          continue;
        case 'package.deleted':
          // Who could see it is gone with its grants: no name is shown to anyone, and every
          // mirror re-reads its list (deletions are rare).
          return resync();
      }
      const name = row.package;
      if (!name || !visible.has(name)) continue;
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
}
