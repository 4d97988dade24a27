import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor, Ctx } from '../context.js';
import { unauthorized } from '../errors.js';
import { ANONYMOUS, authorize } from '../areas/auth/authorize.js';
import { routeRule } from './route-operations.js';
import type { Credentials, CustomerPrincipal } from '../areas/auth/service.js';
import { customerSecret } from '../areas/composer-repository/credentials.js';

/** Per-route authentication settings, declared in each route's `config`. */
export interface RouteAuth {
  /**
   * No admin authentication: the route runs as the anonymous actor, and its operation must be
   * one anyone may run (`PUBLIC`); the boot check refuses it otherwise.
   */
  public?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    tenantId: string;
    /** Cloud: the tenant's own origin (`https://acme.example.com`), for absolute URLs. */
    tenantBaseUrl: string | null;
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

/**
 * The credentials of an admin API request: a Bearer token, or (for operations customers may run)
 * Composer's HTTP Basic `token:<secret>`. Null when there are none.
 */
function credentialsOf(request: FastifyRequest, basicAllowed: boolean): Credentials | null {
  const header = request.headers.authorization;
  if (basicAllowed && header && /^\s*basic\s/i.test(header)) {
    return { scheme: 'basic', secret: customerSecret(header) };
  }
  const token = bearerToken(request);
  return token ? { scheme: 'bearer', secret: token } : null;
}

/**
 * The service context of a request, for every service call a route makes: its tenant, the
 * actor its authentication hook set (anonymous until one does), and where it came from. A plain
 * object: the guarded services refuse anything else, the request itself included.
 */
export function ctxOf(request: FastifyRequest): Ctx {
  return {
    tenantId: request.tenantId,
    // Decorated null: only a route whose hook authenticated has an actor.
    actor: request.actor ?? ANONYMOUS,
    ip: request.ip,
    userAgent: request.userAgent ?? request.headers['user-agent'] ?? null,
  };
}

/**
 * The admin API's authentication, run before every /api/v1 route: who the caller is, through
 * the one `AuthService.authenticate`, then the rule of the service operation the route runs
 * (route-operations.ts, areas/auth/policy.ts) before the body is read. The service applies
 * the same rule again, whatever transport calls it. A public route runs as the anonymous actor.
 */
export async function authenticateAdminRequest(
  request: FastifyRequest,
  _reply: FastifyReply,
): Promise<void> {
  const auth = request.routeOptions.config.auth ?? {};
  request.actor = ANONYMOUS;
  request.userAgent = request.headers['user-agent'] ?? null;
  const rule = routeRule(request.method, request.routeOptions.url);
  if (auth.public) return authorize(ANONYMOUS, rule, request.server.services.deps.config.edition);
  const credentials = credentialsOf(request, Boolean(rule.customerScopes));
  if (!credentials) throw unauthorized('Missing bearer token');
  const { services } = request.server;
  const principal = await services.auth.authenticate(request.tenantId, credentials);
  request.actor = principal.actor;
  if (principal.kind === 'customer') request.customerPrincipal = principal.customer;
  authorize(principal.actor, rule, services.deps.config.edition);
}
