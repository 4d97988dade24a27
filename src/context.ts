import type { Config } from './config/index.js';
import type { Db, Dialect } from './infra/db/connection.js';
import type { CacheGeneration } from './infra/cache-generation.js';
import type { EventBus } from './infra/events.js';
import type { Peers } from './infra/peers.js';
import type { ArchiveStorage } from './infra/storage/storage.js';
import type { Logger } from './infra/logger.js';

export type AdminLevel = 'owner' | 'admin' | 'viewer';
export const ADMIN_LEVELS: readonly AdminLevel[] = ['owner', 'admin', 'viewer'];

/** Who is acting: recorded by the audit log and checked by the services. */
export type AdminActor =
  { kind: 'root'; id: null; level: 'owner' } | { kind: 'cma'; id: string; level: AdminLevel };

/** A customer token (or JWT) acting on the admin API; id is the token's. */
export type CustomerActor = { kind: 'customer'; id: string; customerId: string; scope: string };

export type Actor =
  | AdminActor
  | CustomerActor
  | { kind: 'system'; id: null }
  /** An inbound webhook, verified by its signature; id is the provider (github, payment, …). */
  | { kind: 'webhook'; id: string }
  /** The Cloud edition's platform API, authenticated by PLATFORM_ADMIN_TOKEN. */
  | { kind: 'platform'; id: null }
  /** A route that authenticates nobody: it may run only operations anyone may run. */
  | { kind: 'anonymous'; id: null };

/** What every service call carries: the tenant whose rows it may touch, and the actor. */
export interface Ctx {
  tenantId: string;
  actor: Actor;
  /** Where the call came from, for the audit log (absent for background work). */
  ip?: string;
  userAgent?: string | null;
}

/** Infrastructure shared by the services, opened once at start and closed on shutdown. */
export interface Deps {
  db: Db;
  dialect: Dialect;
  config: Readonly<Config>;
  storage: ArchiveStorage;
  events: EventBus;
  /** Moves on every change visible to Composer clients; caches key on it. */
  generations: CacheGeneration;
  /** The other processes of this serve (and nodes, with Redis): after-commit notices go there. */
  peers: Peers;
  /** Logs of background work (worker, scheduler, event bus, token refresh): JSON lines. */
  log: Logger;
}

export const nowIso = (): string => new Date().toISOString();
