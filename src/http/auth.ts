import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../context.js';
import { forbidden, unauthorized } from '../errors.js';
import type { CustomerPrincipal } from '../areas/auth/service.js';
import { customerSecret } from '../areas/composer-repository/credentials.js';

/** Per-route authorization settings, declared in each route's `config`. */
export interface RouteAuth {
  /** Only owner-level admins (team management). */
  owner?: boolean;
  /** Customer tokens with one of these scopes may call the route too. */
  customerScopes?: string[];
  /** No admin authentication (public and composer routes handle their own). */
  public?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    tenantId: string;
    actor: Actor;
    customerPrincipal: CustomerPrincipal | null;
    /** For the audit log. */
    userAgent: string | null;
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The admin API's authentication and coarse authorization, run before every /api/v1 route:
 * a valid admin token (root or CMA), viewers read-only, owners alone on owner routes.
 */
export async function authenticateAdminRequest(
  request: FastifyRequest,
  _reply: FastifyReply,
): Promise<void> {
  const auth = request.routeOptions.config.auth ?? {};
  request.actor = { kind: 'system', id: null };
  request.userAgent = request.headers['user-agent'] ?? null;
  if (auth.public) return;
  // Customer-scoped routes also take Composer's HTTP Basic `token:<secret>` (customer tokens only).
  const header = request.headers.authorization;
  const basic = Boolean(auth.customerScopes && header && /^\s*basic\s/i.test(header));
  const token = basic ? customerSecret(header) : bearerToken(request);
  if (!token) throw unauthorized('Missing bearer token');
  const services = request.server.services;
  const actor = basic ? null : await services.auth.authenticateAdmin(request.tenantId, token);
  if (actor) {
    if (actor.kind === 'cma' && actor.level === 'viewer' && !READ_METHODS.has(request.method)) {
      throw forbidden('Viewer tokens are read-only');
    }
    if (auth.owner && actor.level !== 'owner') {
      throw forbidden('Only owner tokens may manage team tokens');
    }
    request.actor = actor;
    return;
  }
  const principal = await services.auth.authenticateCustomer(request.tenantId, token);
  if (principal && !auth.customerScopes) {
    // A valid token without the permission: 403, as the contract's FORBIDDEN says; 401 is for
    // tokens that are missing, unknown or expired.
    throw forbidden('Customer tokens may not call this endpoint of the admin API');
  }
  if (auth.customerScopes) {
    if (principal) {
      if (!auth.customerScopes.includes(principal.scope)) {
        throw forbidden(`Token scope "${principal.scope}" may not call this endpoint`);
      }
      request.customerPrincipal = principal;
      request.actor = {
        kind: 'customer',
        id: principal.tokenId,
        customerId: principal.customer.id,
        scope: principal.scope,
      };
      return;
    }
  }
  throw unauthorized('Invalid or expired token');
}
