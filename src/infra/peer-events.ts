import { MemoryEventBus } from './events.js';
import type { DomainEvent, EventBus, EventListener } from './events.js';
import type { Peers } from './peers.js';

/**
 * The in-process bus of one of a serve's processes when there is no Redis: events published here
 * reach this process's subscribers at once and the serve's other processes through `peers`.
 * (With Redis every process subscribes to the channel itself, so this is not needed.)
 */
export class PeerEventBus implements EventBus {
  private readonly local = new MemoryEventBus();
  private readonly stop: () => void;

  constructor(private readonly peers: Peers) {
    this.stop = peers.on('event', ({ event }) => this.local.publish(event));
  }

  publish(event: DomainEvent): void {
    this.local.publish(event);
    void this.peers.tell({ kind: 'event', event });
  }

  subscribe(listener: EventListener): () => void {
    return this.local.subscribe(listener);
  }

  close(): Promise<void> {
    this.stop();
    return this.local.close();
  }
}
