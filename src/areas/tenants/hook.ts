import type { FastifyRequest } from 'fastify';
import type { App } from '../../http/app-types.js';
import { hostTarget } from './host.js';
import type { TenantResolver } from './resolver.js';

/** Routes that answer on any host: the platform API (docs/cloud.md). */
const PLATFORM_PREFIX = '/api/v1/tenants';
/**
 * The GitHub App's webhook and Setup URL: one App serves the whole deployment, so GitHub posts
 * and redirects to one URL; installations are then claimed by tenants (the Setup URL's state
 * names the tenant).
 */
const PLATFORM_WEBHOOKS = new Set(['/api/webhooks/hostapp', '/api/hostapp/setup']);
/**
 * The OAuth callback: one application per git host serves the deployment, so the host sends the
 * browser back to the platform's URL; the authorization's state names the tenant.
 */
const OAUTH_CALLBACK = /^\/api\/oauth\/[^/]+\/callback$/;
/** Probes an orchestrator sends to a node's address, not to a tenant's host. */
const PROBES = new Set(['/healthz', '/readyz']);

/**
 * Cloud: sets `request.tenantId` from the Host header before anything else looks at the request,
 * so every route (REST, GraphQL and its WebSocket, the Composer surface, webhooks) works on the
 * host's tenant; refusals (400/404/403) come before any token is read.
 */
export function resolveTenantsByHost(
  app: App,
  resolver: TenantResolver,
  { baseUrl, baseDomain }: { baseUrl: string; baseDomain: string },
) {
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?')[0] ?? '';
    if (path === PLATFORM_PREFIX || path.startsWith(`${PLATFORM_PREFIX}/`)) return;
    if (PLATFORM_WEBHOOKS.has(path) || OAUTH_CALLBACK.test(path)) return;
    // A probe by address checks the node; on a tenant's host it checks the tenant too.
    if (PROBES.has(path) && hostTarget(request.headers.host, baseDomain).kind === 'none') return;
    const { tenantId, subdomain } = await resolver.resolve(request.headers.host);
    request.tenantId = tenantId;
    request.tenantBaseUrl = tenantOrigin(baseUrl, subdomain, baseDomain);
  });
}

/** `<scheme>://<subdomain>.<BASE_DOMAIN>[:port]`, the scheme and port from BASE_URL (docs/cloud.md). */
export function tenantOrigin(baseUrl: string, subdomain: string, baseDomain: string): string {
  const base = new URL(baseUrl);
  return `${base.protocol}//${subdomain}.${baseDomain}${base.port ? `:${base.port}` : ''}`;
}

/** The origin absolute URLs of this request use: its tenant's in Cloud, else BASE_URL. */
export const originOf = (request: FastifyRequest, baseUrl: string): string =>
  request.tenantBaseUrl ?? baseUrl;
