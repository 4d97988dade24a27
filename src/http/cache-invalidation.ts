import type { FastifyReply, FastifyRequest } from 'fastify';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Every successful write of the admin API (and later GraphQL, webhooks) moves the tenant's cache generation before
 * the answer leaves, so a client that saw "token rotated" can never be served from a cache
 * that still trusts the old value. One hook instead of a call in every service method.
 */
export async function invalidateCachesOnWrite(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  if (!READS.has(request.method) && reply.statusCode < 400) {
    await request.server.services.deps.generations.bump(request.tenantId);
  }
  return payload;
}
