import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Services } from '../services.js';
import type { FastConnectionStats } from './fast-connections.js';

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    /** Answers p2 cache hits before routing (src/areas/composer-repository/fast-path.ts). */
    p2FastPath: { hits: number };
    /** What the connection layer under node:http answered and handed over (fast-connections.ts). */
    fastConnections: FastConnectionStats;
  }
}

/** The Fastify instance every route module receives, with types inferred from TypeBox schemas. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;
