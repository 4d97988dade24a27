import type { FastifyRequest } from 'fastify';
import type { MercuriusContext } from 'mercurius';
import type { RawData, WebSocket } from 'ws';
import type { App } from '../http/app-types.js';
import type { Ctx } from '../context.js';
import type { Services } from '../services.js';
import { hasFeature } from '../editions.js';
import { AppError } from '../errors.js';
import { outboxStream } from './streams.js';

/**
 * GraphQL subscriptions over WebSocket (docs/graphql.md): the `graphql-transport-ws`
 * protocol at /graphql, authenticated by the `connection_init` payload. Outbox events are read
 * from the events table on a bus notice, downloads come from the bus itself (with REDIS_URL a
 * subscriber on one node hears what another node committed or published).
 */

/** Close code for a refused connection: missing/bad token, or an edition without GraphQL. */
export const WS_FORBIDDEN = 4403;
/** graphql-ws's close code for too many attempts: the address is over AUTH_FAILURE_LIMIT. */
export const WS_TOO_MANY = 4429;

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

function need(context: MercuriusContext): Ctx {
  // The connection is refused before any subscription starts without a context.
  if (!context.ctx) throw new Error('Subscription without an authenticated connection');
  return context.ctx;
}

const ACTIVITIES: Record<string, GqlCustomerActivityEvent['type']> = {
  'token.created': 'TOKEN_CREATED',
  'token.revoked': 'TOKEN_REVOKED',
  'access.granted': 'ACCESS_GRANTED',
  'access.revoked': 'ACCESS_REVOKED',
  'customer.status_changed': 'STATUS_CHANGED',
};

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const strs = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

export const subscriptionResolvers = {
  Subscription: {
    packageSynced: {
      subscribe: (_root: unknown, args: { name?: string | null }, context: MercuriusContext) => {
        const name = args.name ?? null;
        return outboxStream<GqlPackageSyncEvent>(
          context.services.deps,
          need(context).tenantId,
          ({ type, data, created_at }) => {
            const pkg = str(data.package);
            if (type !== 'package.synced' || pkg === null) return null;
            if (name !== null && pkg !== name) return null;
            return {
              package: pkg,
              status: str(data.status) ?? 'ok',
              versionsAdded: strs(data.versions_added),
              versionsRemoved: strs(data.versions_removed),
              error: str(data.error),
              syncedAt: created_at,
            };
          },
        );
      },
      resolve: (payload: GqlPackageSyncEvent) => payload,
    },
    customerActivity: {
      subscribe: (
        _root: unknown,
        args: { customerId?: string | null },
        context: MercuriusContext,
      ) => {
        const customerId = args.customerId ?? null;
        return outboxStream<GqlCustomerActivityEvent>(
          context.services.deps,
          need(context).tenantId,
          ({ type, data, created_at }) => {
            const activity = ACTIVITIES[type];
            const id = str(data.customer_id);
            if (activity === undefined || id === null) return null;
            if (customerId !== null && id !== customerId) return null;
            const pkg = activity.startsWith('ACCESS_') ? str(data.package) : null;
            return { customerId: id, type: activity, package: pkg, version: null, at: created_at };
          },
          // Downloads are not outbox events: they stay on the bus (docs/graphql.md).
          (event) => {
            if (event.type !== 'customer.activity' || event.activity !== 'DOWNLOAD') return null;
            if (customerId !== null && event.customerId !== customerId) return null;
            return {
              customerId: event.customerId,
              type: event.activity,
              package: event.package,
              version: event.version,
              at: event.at,
            };
          },
        );
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
