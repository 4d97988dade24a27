import { EventEmitter } from 'node:events';

/** Everything that happens and that subscriptions, webhooks and the audit trail may care about. */
export type DomainEvent =
  | {
      type: 'package.synced';
      tenantId: string;
      package: string;
      status: 'ok' | 'failed';
      versionsAdded: string[];
      versionsRemoved: string[];
      error: string | null;
      at: string;
      /** How long the sync took (git fetch to commit); absent for artifact uploads. */
      durationMs?: number;
    }
  | {
      type: 'customer.activity';
      tenantId: string;
      customerId: string;
      activity:
        | 'DOWNLOAD'
        | 'TOKEN_CREATED'
        | 'TOKEN_REVOKED'
        | 'ACCESS_GRANTED'
        | 'ACCESS_REVOKED'
        | 'STATUS_CHANGED';
      package: string | null;
      version: string | null;
      at: string;
    }
  | {
      /** An advisory newly affects held versions (docs/advisories.md), published after commit. */
      type: 'vulnerability.detected';
      tenantId: string;
      /** The advisory's PKYD id, and its own id (GET /api/v1/vulnerabilities/{id}). */
      advisoryId: string;
      vulnerabilityId: string;
      package: string;
      severity: string | null;
      cve: string | null;
      /** The held versions newly found affected. */
      versions: string[];
      at: string;
    }
  | {
      /**
       * A committed unit of work wrote outbox events up to `lastId` (its last); subscriptions
       * read the rows themselves (src/areas/events/live.ts), so this notice carries no data.
       */
      type: 'events.appended';
      tenantId: string;
      lastId: string;
      at: string;
    };

export type EventListener = (event: DomainEvent) => void;

/**
 * The one publish function every domain event goes through. In-process today; a Redis-backed
 * implementation of the same interface fans events out across nodes.
 */
export interface EventBus {
  publish(event: DomainEvent): void;
  subscribe(listener: EventListener): () => void;
  /** Releases what the bus holds (connections); called once on shutdown. */
  close(): Promise<void>;
}

export class MemoryEventBus implements EventBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  publish(event: DomainEvent): void {
    this.emitter.emit('event', event);
  }

  subscribe(listener: EventListener): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
