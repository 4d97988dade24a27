import cluster from 'node:cluster';
import { forkedByServe } from './serve-processes.js';
import type { Logger } from './logger.js';
import type { DomainEvent } from './events.js';

/**
 * What one process tells the others after a unit of work committed: the caches they must drop
 * and the events their subscribers must hear. See docs/deployment.md, "One serve, one registry".
 */
export type Notice =
  /** The tenant's access generation moved to `generation` (null: unknown, just forget). */
  | { kind: 'generation'; tenantId: string; generation: number | null }
  /** Only these packages' documents changed; `seq` is the tenant's package sequence then. */
  | { kind: 'packages'; tenantId: string; names: string[]; seq: number }
  /** A domain event for this process's subscribers. */
  | { kind: 'event'; event: DomainEvent }
  /** A cached platform fact to forget: a tenant's host lookup, or its plan limits. */
  | { kind: 'forget'; cache: 'tenant-host' | 'tenant-plan'; key: string };

export type NoticeKind = Notice['kind'];
type NoticeOf<K extends NoticeKind> = Extract<Notice, { kind: K }>;

/**
 * A process's siblings: the other processes of the same `packyard serve`, and, with Redis,
 * every process of every other node. `tell` resolves once every live sibling process on this
 * machine has applied the notice (other nodes hear it at once but are not waited for; their
 * database poll is the safety net).
 */
export interface Peers {
  tell(notice: Notice): Promise<void>;
  /** Calls `handler` with each notice of `kind` another process sends; returns the unsubscribe. */
  on<K extends NoticeKind>(kind: K, handler: (notice: NoticeOf<K>) => void): () => void;
  /** Applies the notice in this process too, then tells the others. */
  everywhere(notice: Notice): Promise<void>;
}

/** Carries notices to other nodes (Redis pub/sub with REDIS_URL); fire and forget. */
export interface RemoteNotices {
  sendNotice(notice: Notice): void;
  onRemoteNotice(listener: (notice: Notice) => void): () => void;
}

const TELL = 'packyard:peers:tell';
const APPLY = 'packyard:peers:apply';
const APPLIED = 'packyard:peers:applied';
const TOLD = 'packyard:peers:told';

/** How long a write waits for the other processes before answering anyway (and logging it). */
export const APPLY_TIMEOUT_MS = 1000;

interface TellMessage {
  type: typeof TELL;
  id: number;
  notice: Notice;
}
interface ApplyMessage {
  type: typeof APPLY;
  id: string;
  notice: Notice;
}
interface AppliedMessage {
  type: typeof APPLIED;
  id: string;
}
interface ToldMessage {
  type: typeof TOLD;
  id: number;
}

const isMessage = <T extends { type: string }>(m: unknown, type: T['type']): m is T =>
  typeof m === 'object' && m !== null && (m as { type?: unknown }).type === type;

/**
 * The peers of this process: over node's cluster IPC through the primary when this process is one
 * of a serve's (WEB_CONCURRENCY > 1), and over `remote` when given. A lone process with no remote
 * has no one to tell.
 */
export class ProcessPeers implements Peers {
  private readonly handlers = new Map<NoticeKind, Set<(notice: Notice) => void>>();
  private readonly waiting = new Map<number, () => void>();
  private nextId = 1;
  private readonly inCluster = forkedByServe();
  private stopRemote: (() => void) | null = null;

  constructor(
    private readonly log: Logger,
    private readonly remote?: RemoteNotices,
  ) {
    if (this.inCluster) listenToPrimary(this);
    if (remote) this.stopRemote = remote.onRemoteNotice((notice) => this.apply(notice));
  }

  on<K extends NoticeKind>(kind: K, handler: (notice: NoticeOf<K>) => void): () => void {
    let set = this.handlers.get(kind);
    if (!set) this.handlers.set(kind, (set = new Set()));
    const entry = handler as (notice: Notice) => void;
    set.add(entry);
    return () => set.delete(entry);
  }

  async everywhere(notice: Notice): Promise<void> {
    this.apply(notice);
    await this.tell(notice);
  }

  tell(notice: Notice): Promise<void> {
    // Events cross nodes on the event bus's own channel; everything else goes here.
    if (notice.kind !== 'event') this.remote?.sendNotice(notice);
    if (!this.inCluster) return Promise.resolve();
    const id = this.nextId++;
    return new Promise<void>((resolve) => {
      // The primary answers within APPLY_TIMEOUT_MS; this covers a primary that is gone.
      const timer = setTimeout(() => done(), APPLY_TIMEOUT_MS * 2).unref();
      const done = () => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve();
      };
      this.waiting.set(id, done);
      process.send?.(
        { type: TELL, id, notice } satisfies TellMessage,
        undefined,
        undefined,
        (err) => {
          if (err) done();
        },
      );
    });
  }

  close(): void {
    listeners.delete(this);
    this.stopRemote?.();
    this.stopRemote = null;
  }

  /** A notice from another process: every handler of its kind, one failing not the others. */
  apply(notice: Notice): void {
    for (const handler of this.handlers.get(notice.kind) ?? []) {
      try {
        handler(notice);
      } catch (err) {
        this.log.error({ err, kind: notice.kind }, 'applying a notice from another process failed');
      }
    }
  }

  /** The primary's word that every sibling applied notice `id` (or did not answer in time). */
  told(id: number): void {
    this.waiting.get(id)?.();
  }
}

/** The process's one IPC listener: several runtimes in one process (tests) each get theirs. */
const listeners = new Set<ProcessPeers>();
function listenToPrimary(peers: ProcessPeers): void {
  if (listeners.size === 0) {
    process.on('message', (message: unknown) => {
      if (isMessage<ApplyMessage>(message, APPLY)) {
        for (const p of listeners) p.apply(message.notice);
        process.send?.(
          { type: APPLIED, id: message.id } satisfies AppliedMessage,
          undefined,
          undefined,
          () => {},
        );
      } else if (isMessage<ToldMessage>(message, TOLD)) {
        for (const p of listeners) p.told(message.id);
      }
    });
  }
  listeners.add(peers);
}

interface Broadcast {
  origin: Worker;
  originId: number;
  waitingFor: Set<number>;
  timer: NodeJS.Timeout;
}
type Worker = NonNullable<typeof cluster.workers>[string] & object;

/**
 * In the primary: passes each process's notice to every other live process, and tells the sender
 * once all of them applied it. A process that does not answer within APPLY_TIMEOUT_MS is logged
 * and the sender released: its database poll (a second) is the safety net.
 */
export function relayPeers(log: Logger): void {
  const open = new Map<string, Broadcast>();
  const finish = (key: string) => {
    const b = open.get(key);
    if (!b) return;
    open.delete(key);
    clearTimeout(b.timer);
    if (b.origin.isConnected())
      b.origin.send({ type: TOLD, id: b.originId } satisfies ToldMessage, () => {});
  };
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (isMessage<TellMessage>(message, TELL)) {
      const key = `${worker.id}:${message.id}`;
      const others = Object.values(cluster.workers ?? {}).filter(
        (w): w is Worker => !!w && w.id !== worker.id && w.isConnected(),
      );
      const timer = setTimeout(() => {
        const late = [...(open.get(key)?.waitingFor ?? [])].map(
          (id) => cluster.workers?.[id]?.process.pid,
        );
        log.warn(
          { pids: late, kind: message.notice.kind },
          'a serve process did not apply a change in time',
        );
        finish(key);
      }, APPLY_TIMEOUT_MS).unref();
      open.set(key, {
        origin: worker,
        originId: message.id,
        waitingFor: new Set(others.map((w) => w.id)),
        timer,
      });
      for (const other of others) {
        other.send(
          { type: APPLY, id: key, notice: message.notice } satisfies ApplyMessage,
          (err: Error | null) => {
            if (err) acknowledge(key, other.id);
          },
        );
      }
      if (others.length === 0) finish(key);
    } else if (isMessage<AppliedMessage>(message, APPLIED)) {
      acknowledge(message.id, worker.id);
    }
  });
  const acknowledge = (key: string, workerId: number) => {
    const b = open.get(key);
    if (!b) return;
    b.waitingFor.delete(workerId);
    if (b.waitingFor.size === 0) finish(key);
  };
  // A process that dies owes nothing more.
  cluster.on('exit', (worker: Worker) => {
    for (const key of [...open.keys()]) acknowledge(key, worker.id);
  });
}
