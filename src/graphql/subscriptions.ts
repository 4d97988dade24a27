import type { FastifyRequest } from 'fastify';
import type { MercuriusContext } from 'mercurius';
import type { RawData, WebSocket } from 'ws';
import type { App } from '../http/app-types.js';
import type { Ctx } from '../context.js';
import type { Services } from '../services.js';
import { hasFeature } from '../editions.js';
import { AppError } from '../errors.js';
import type { DomainEvent, EventBus } from '../infra/events.js';

/**
 * GraphQL subscriptions over WebSocket (docs/graphql.md): the `graphql-transport-ws`
 * protocol at /graphql, authenticated by the `connection_init` payload, fed by the EventBus (so
 * with REDIS_URL a subscriber on one node hears events published on another).
 */

/** Close code for a refused connection: missing/bad token, or an edition without GraphQL. */
export const WS_FORBIDDEN = 4403;
/** graphql-ws's close code for too many attempts: the address is over AUTH_FAILURE_LIMIT. */
export const WS_TOO_MANY = 4429;

/** Events buffered per subscription before the oldest are dropped (a stalled client). */
const QUEUE_LIMIT = 1000;

export interface GqlPackageSyncEvent {
  package: string;
  status: string;
  versionsAdded: string[];
  versionsRemoved: string[];
  error: string | null;
  syncedAt: string;
}

export interface GqlCustomerActivityEvent {
  customerId: string;
  type: string;
  package: string | null;
  version: string | null;
  at: string;
}

/**
 * The bus events that `select` maps to a value, as an async iterator: one bus listener, removed
 * by `return()` (the subscription ending, the client completing it, or the socket closing).
 */
export function eventStream<T>(
  bus: EventBus,
  select: (event: DomainEvent) => T | null,
): AsyncIterableIterator<T> {
  const queue: T[] = [];
  let waiting: ((result: IteratorResult<T>) => void) | null = null;
  let done = false;
  const unsubscribe = bus.subscribe((event) => {
    if (done) return;
    const value = select(event);
    if (value === null) return;
    if (waiting) {
      const resolve = waiting;
      waiting = null;
      resolve({ value, done: false });
      return;
    }
    queue.push(value);
    if (queue.length > QUEUE_LIMIT) queue.shift();
  });
  const finish = (): Promise<IteratorResult<T>> => {
    if (!done) {
      done = true;
      unsubscribe();
      queue.length = 0;
      if (waiting) {
        const resolve = waiting;
        waiting = null;
        resolve({ value: undefined, done: true });
      }
    }
    return Promise.resolve({ value: undefined, done: true });
  };
  const iterator: AsyncIterableIterator<T> = {
    next: () => {
      if (queue.length > 0) return Promise.resolve({ value: queue.shift() as T, done: false });
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => {
        waiting = resolve;
      });
    },
    return: finish,
    throw: async (error: unknown) => {
      await finish();
      throw error;
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

function need(context: MercuriusContext): Ctx {
  // The connection is refused before any subscription starts without a context.
  if (!context.ctx) throw new Error('Subscription without an authenticated connection');
  return context.ctx;
}

export const subscriptionResolvers = {
  Subscription: {
    packageSynced: {
      subscribe: (_root: unknown, args: { name?: string | null }, context: MercuriusContext) => {
        const { tenantId } = need(context);
        const name = args.name ?? null;
        return eventStream<GqlPackageSyncEvent>(context.services.deps.events, (event) => {
          if (event.type !== 'package.synced' || event.tenantId !== tenantId) return null;
          if (name !== null && event.package !== name) return null;
          return {
            package: event.package,
            status: event.status,
            versionsAdded: event.versionsAdded,
            versionsRemoved: event.versionsRemoved,
            error: event.error,
            syncedAt: event.at,
          };
        });
      },
      resolve: (payload: GqlPackageSyncEvent) => payload,
    },
    customerActivity: {
      subscribe: (
        _root: unknown,
        args: { customerId?: string | null },
        context: MercuriusContext,
      ) => {
        const { tenantId } = need(context);
        const customerId = args.customerId ?? null;
        return eventStream<GqlCustomerActivityEvent>(context.services.deps.events, (event) => {
          if (event.type !== 'customer.activity' || event.tenantId !== tenantId) return null;
          if (customerId !== null && event.customerId !== customerId) return null;
          return {
            customerId: event.customerId,
            type: event.activity,
            package: event.package,
            version: event.version,
            at: event.at,
          };
        });
      },
      resolve: (payload: GqlCustomerActivityEvent) => payload,
    },
  },
};

/** The token of a `connection_init` payload `{"Authorization": "Bearer <token>"}`, any key case. */
export function payloadToken(payload: unknown): string | null {
  if (typeof payload !== 'object' || payload === null) return null;
  for (const [key, value] of Object.entries(payload)) {
    if (key.toLowerCase() !== 'authorization' || typeof value !== 'string') continue;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(value);
    return match?.[1] ?? null;
  }
  return null;
}

/** Whether an upgrade request is a real WebSocket upgrade (set by @fastify/websocket). */
export function isWebSocketRequest(request: FastifyRequest): boolean {
  return (request as FastifyRequest & { ws?: boolean }).ws === true;
}

/** Thrown (after the socket is closed with 4403) so Mercurius abandons the connection. */
class ConnectionRefused extends Error {}

/**
 * The Mercurius `subscription` options. Mercurius's own `onConnect` can only refuse with a
 * `connection_error` and a plain close, and never sees the socket; so the `connection_init`
 * payload is captured from the socket itself (`captureInitPayloads`) and checked in `context`,
 * which does see the socket and closes it with 4403.
 */
export function subscriptionOptions(services: Services) {
  const { config } = services.deps;
  return {
    fullWsTransport: false,
    context: async (socket: WebSocket, request: FastifyRequest) => {
      const refuse = (reason: string): never => {
        socket.close(WS_FORBIDDEN, reason);
        throw new ConnectionRefused(reason);
      };
      if (!hasFeature(config.edition, 'graphql')) refuse('FEATURE_NOT_AVAILABLE');
      const token = payloadToken(initPayloads.get(socket));
      initPayloads.delete(socket);
      if (!token) return refuse('Forbidden');
      let principal;
      try {
        principal = await services.auth.authenticate(
          request.tenantId,
          { scheme: 'bearer', secret: token },
          ['admin'],
        );
      } catch (err) {
        if (err instanceof AppError && err.code === 'UNAUTHORIZED') {
          // Guessed tokens count against the address as on HTTP (http/auth-failures.ts); past
          // the limit a refused token is told to wait (4429). A valid token is never refused.
          const wait = (await request.server.authFailures?.fail(request.ip)) ?? 0;
          if (wait > 0) {
            socket.close(WS_TOO_MANY, 'RATE_LIMITED');
            throw new ConnectionRefused('RATE_LIMITED');
          }
          return refuse('Forbidden');
        }
        throw err;
      }
      const ctx: Ctx = {
        tenantId: request.tenantId,
        actor: principal.actor,
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      };
      return { ctx, services };
    },
    onConnect: () => true,
  };
}

const initPayloads = new WeakMap<WebSocket, unknown>();

type WsHandler = (this: unknown, socket: WebSocket, request: FastifyRequest) => unknown;

/**
 * Records each socket's `connection_init` payload as it arrives, by wrapping the WebSocket
 * handler Mercurius registers at /graphql: the listener is attached before Mercurius attaches its
 * own, so the payload is known when `context` runs. Call before registering Mercurius.
 */
export function captureInitPayloads(app: App, path: string): void {
  app.addHook('onRoute', (route) => {
    const options = route as typeof route & { wsHandler?: WsHandler };
    const inner = options.wsHandler;
    if (route.url !== path || typeof inner !== 'function') return;
    options.wsHandler = function (this: unknown, socket: WebSocket, request: FastifyRequest) {
      const onMessage = (data: RawData) => {
        let message: unknown;
        try {
          const bytes = Array.isArray(data)
            ? Buffer.concat(data)
            : Buffer.isBuffer(data)
              ? data
              : Buffer.from(data);
          message = JSON.parse(bytes.toString('utf8'));
        } catch {
          return;
        }
        if (
          typeof message === 'object' &&
          message !== null &&
          (message as { type?: unknown }).type === 'connection_init'
        ) {
          socket.off('message', onMessage);
          initPayloads.set(socket, (message as { payload?: unknown }).payload ?? null);
        }
      };
      socket.on('message', onMessage);
      return inner.call(this, socket, request);
    };
  });
}
