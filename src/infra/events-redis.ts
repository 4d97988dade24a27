import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Config } from '../config/index.js';
import { MemoryEventBus } from './events.js';
import type { DomainEvent, EventBus, EventListener } from './events.js';
import type { Notice, RemoteNotices } from './peers.js';

export interface RedisEventBusOptions {
  /** redis://… (REDIS_URL). */
  url: string;
  /**
   * Prefix of every Redis key and channel (REDIS_KEY_PREFIX): events go over `${prefix}events`,
   * cache notices (generation moves, tenants to forget) over `${prefix}notices`.
   */
  prefix: string;
  /**
   * Told when Redis is unreachable or a listener throws. Reported once per outage: after the first
   * failure, further ones stay quiet until the connection works again.
   */
  onError?: (err: Error) => void;
}

/** What goes over the channel: the event, tagged with the instance that published it. */
interface Envelope {
  origin: string;
  event: DomainEvent;
}

const EVENT_TYPES: ReadonlySet<string> = new Set<DomainEvent['type']>([
  'package.synced',
  'customer.activity',
  'vulnerability.detected',
  'events.appended',
]);

/** Minimal shape check of a message from the channel; anything else is ignored. */
export function parseEnvelope(raw: string): Envelope | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { origin, event } = value as Record<string, unknown>;
  if (typeof origin !== 'string' || typeof event !== 'object' || event === null) return null;
  const fields = event as Record<string, unknown>;
  if (typeof fields.type !== 'string' || !EVENT_TYPES.has(fields.type)) return null;
  if (typeof fields.tenantId !== 'string' || typeof fields.at !== 'string') return null;
  return { origin, event: event as DomainEvent };
}

type NoticeListener = (notice: Notice) => void;

const text = (v: unknown): v is string => typeof v === 'string';
const names = (v: unknown): v is string[] => Array.isArray(v) && v.every(text);
const count = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/** A cache notice from the channel (never an event: those have their own), or null. */
export function parseNotice(raw: string): { origin: string; notice: Notice } | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { origin, notice } = value as Record<string, unknown>;
  if (!text(origin) || typeof notice !== 'object' || notice === null) return null;
  const n = notice as Record<string, unknown>;
  const valid =
    (n.kind === 'generation' &&
      text(n.tenantId) &&
      (n.generation === null || count(n.generation))) ||
    (n.kind === 'packages' && text(n.tenantId) && names(n.names) && count(n.seq)) ||
    (n.kind === 'forget' &&
      (n.cache === 'tenant-host' || n.cache === 'tenant-plan') &&
      text(n.key));
  return valid ? { origin, notice: n as Notice } : null;
}

/**
 * The event bus across nodes: an event published here reaches this process's listeners at once
 * (exactly once, whether Redis works or not) and is published on the Redis channel
 * `${prefix}events`; events other processes publish there reach this process's listeners too.
 * Each bus tags its messages with its own id and ignores them when they come back.
 * It also carries cache notices between nodes (`RemoteNotices`, src/infra/peers.ts).
 */
export class RedisEventBus implements EventBus, RemoteNotices {
  readonly channel: string;
  readonly noticeChannel: string;
  private readonly noticeListeners = new Set<NoticeListener>();
  private readonly instanceId = randomUUID();
  private readonly listeners = new Set<EventListener>();
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly onError: (err: Error) => void;
  private failing = false;
  private closed = false;
  private subscribedOnce = false;
  private readonly subscribedWaiters: (() => void)[] = [];

  constructor(options: RedisEventBusOptions) {
    this.channel = `${options.prefix}events`;
    this.noticeChannel = `${options.prefix}notices`;
    this.onError = options.onError ?? (() => undefined);
    // Publishing is fire-and-forget: a command waiting for a down server fails after one retry.
    this.pub = new Redis(options.url, { maxRetriesPerRequest: 1, connectTimeout: 2000 });
    // The subscription is (re)made on every connect, so it survives Redis restarts.
    this.sub = new Redis(options.url, {
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      autoResubscribe: false,
    });
    for (const conn of [this.pub, this.sub]) {
      conn.on('error', (err: Error) => this.report(err));
      conn.on('ready', () => {
        this.failing = false;
      });
    }
    this.sub.on('ready', () => {
      this.sub.subscribe(this.channel, this.noticeChannel).then(
        () => this.markSubscribed(),
        (err: unknown) => this.report(asError(err)),
      );
    });
    this.sub.on('message', (channel: string, message: string) => {
      if (channel === this.channel) this.receive(message);
      else if (channel === this.noticeChannel) this.receiveNotice(message);
    });
  }

  publish(event: DomainEvent): void {
    this.deliver(event);
    if (this.closed) return;
    const envelope: Envelope = { origin: this.instanceId, event };
    let payload: string;
    try {
      payload = JSON.stringify(envelope);
    } catch (err) {
      this.report(asError(err));
      return;
    }
    this.pub.publish(this.channel, payload).catch((err: unknown) => this.report(asError(err)));
  }

  subscribe(listener: EventListener): () => void {
    // Wrapped, so the same function subscribed twice is called twice, like an EventEmitter.
    const entry: EventListener = (event) => listener(event);
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  sendNotice(notice: Notice): void {
    if (this.closed) return;
    const payload = JSON.stringify({ origin: this.instanceId, notice });
    this.pub
      .publish(this.noticeChannel, payload)
      .catch((err: unknown) => this.report(asError(err)));
  }

  onRemoteNotice(listener: NoticeListener): () => void {
    const entry: NoticeListener = (notice) => listener(notice);
    this.noticeListeners.add(entry);
    return () => {
      this.noticeListeners.delete(entry);
    };
  }

  /** Resolves once this bus listens on the channel (or after `timeoutMs`, whichever is first). */
  whenSubscribed(timeoutMs = 5000): Promise<boolean> {
    if (this.subscribedOnce) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      timer.unref();
      this.subscribedWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.listeners.clear();
    this.noticeListeners.clear();
    await Promise.all([this.pub, this.sub].map(closeConnection));
  }

  private receive(message: string): void {
    const envelope = parseEnvelope(message);
    if (!envelope || envelope.origin === this.instanceId) return;
    this.deliver(envelope.event);
  }

  private receiveNotice(message: string): void {
    const parsed = parseNotice(message);
    if (!parsed || parsed.origin === this.instanceId) return;
    for (const listener of [...this.noticeListeners]) {
      try {
        listener(parsed.notice);
      } catch (err) {
        this.onError(asError(err));
      }
    }
  }

  private deliver(event: DomainEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (err) {
        // One failing listener must neither starve the others nor break the publisher.
        this.onError(asError(err));
      }
    }
  }

  private markSubscribed(): void {
    this.subscribedOnce = true;
    for (const wake of this.subscribedWaiters.splice(0)) wake();
  }

  private report(err: Error): void {
    if (this.failing || this.closed) return;
    this.failing = true;
    this.onError(err);
  }
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

/** Quits politely when connected; otherwise drops the connection and stops reconnecting. */
async function closeConnection(conn: Redis): Promise<void> {
  if (conn.status === 'ready') {
    try {
      await conn.quit();
      return;
    } catch {
      // fall through to a hard disconnect
    }
  }
  conn.disconnect();
}

/** The way to other nodes a bus offers for cache notices, if any (the Redis bus does). */
export function remoteNoticesOf(bus: EventBus): RemoteNotices | undefined {
  return bus instanceof RedisEventBus ? bus : undefined;
}

/** The bus the settings ask for: Redis pub/sub across nodes with REDIS_URL, else in-process. */
export function createEventBus(
  config: Pick<Config, 'redisUrl' | 'redisKeyPrefix'>,
  onError: (err: Error) => void = (err) =>
    console.error(`events: Redis pub/sub unavailable: ${err.message}`),
): EventBus {
  if (!config.redisUrl) return new MemoryEventBus();
  return new RedisEventBus({ url: config.redisUrl, prefix: config.redisKeyPrefix, onError });
}
