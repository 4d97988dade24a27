import type { RouteOptions } from 'fastify';
import { POLICY } from '../areas/auth/policy.js';
import { READ } from '../areas/auth/authorize.js';
import type { Rule } from '../areas/auth/authorize.js';
import { forbidden } from '../errors.js';

type Area = keyof typeof POLICY;
/** `<area>.<method>` of a service operation that POLICY has a rule for. */
export type Operation = {
  [A in Area]: `${A}.${Extract<keyof (typeof POLICY)[A], string>}`;
}[Area];

/**
 * Which service operation each route under /api/v1 runs (its path as registered), the platform
 * API's included; the few that run none (the license, the session, webhook deliveries) name
 * their rule. The authentication hook applies the operation's rule before the body is even
 * parsed (a viewer's POST is 403 whatever its body); the service checks again. Deny by default:
 * a route missing here fails at boot (`assertRouteOperation`) and refuses at run time.
 */
export const ROUTE_OPERATIONS: Readonly<Record<string, Operation | Rule>> = {
  'GET /api/v1/customers': 'customers.list',
  'POST /api/v1/customers': 'customers.create',
  'GET /api/v1/customers/by-external/:external_id': 'customers.getByExternalId',
  'GET /api/v1/customers/:id': 'customers.get',
  'PATCH /api/v1/customers/:id': 'customers.update',
  'DELETE /api/v1/customers/:id': 'customers.delete',
  'POST /api/v1/customers/:id/suspend': 'customers.suspend',
  'POST /api/v1/customers/:id/reactivate': 'customers.reactivate',
  'POST /api/v1/customers/:id/freeze': 'customers.freeze',
  'GET /api/v1/customers/:id/packages': 'access.list',
  'POST /api/v1/customers/:id/packages': 'access.grant',
  'PUT /api/v1/customers/:id/packages': 'access.replace',
  'DELETE /api/v1/customers/:id/packages/:vendor/:name': 'access.revoke',
  'GET /api/v1/customers/:id/collections': 'access.listCollections',
  'POST /api/v1/customers/:id/collections': 'access.grantCollection',
  'DELETE /api/v1/customers/:id/collections/:slug': 'access.revokeCollection',
  'GET /api/v1/customers/:id/tokens': 'tokens.list',
  'POST /api/v1/customers/:id/tokens': 'tokens.create',
  'GET /api/v1/customers/:id/tokens/:token_id': 'tokens.get',
  'DELETE /api/v1/customers/:id/tokens/:token_id': 'tokens.revoke',
  'POST /api/v1/customers/:id/tokens/:token_id/rotate': 'tokens.rotate',
  'POST /api/v1/customers/:id/token/regenerate': 'tokens.regenerate',
  'DELETE /api/v1/customers/:id/token': 'tokens.revokeAll',
  'POST /api/v1/customers/:id/jwt': 'tokens.issueJwt',
  'GET /api/v1/collections': 'collections.list',
  'POST /api/v1/collections': 'collections.create',
  'GET /api/v1/collections/:slug': 'collections.get',
  'PATCH /api/v1/collections/:slug': 'collections.update',
  'DELETE /api/v1/collections/:slug': 'collections.delete',
  'GET /api/v1/packages': 'packages.list',
  'POST /api/v1/packages': 'packages.add',
  'GET /api/v1/packages/:vendor/:name': 'packages.detail',
  'DELETE /api/v1/packages/:vendor/:name': 'packages.delete',
  'GET /api/v1/packages/:vendor/:name/readme': 'packages.get',
  'GET /api/v1/packages/:vendor/:name/versions': 'packages.detail',
  'GET /api/v1/packages/:vendor/:name/download/:version': 'packages.archive',
  'GET /api/v1/packages/:vendor/:name/customers': 'access.customersOf',
  'GET /api/v1/packages/:vendor/:name/webhook-deliveries': READ,
  'POST /api/v1/packages/:vendor/:name/sync': 'packages.requestSync',
  'GET /api/v1/packages/:vendor/:name/monorepo': 'monorepos.describe',
  'GET /api/v1/packages/:vendor/:name/monorepo/children': 'monorepos.children',
  'POST /api/v1/packages/:vendor/:name/monorepo/sync': 'monorepos.sync',
  'POST /api/v1/packages/:vendor/:name/yank/:version': 'packages.setFlag',
  'POST /api/v1/packages/:vendor/:name/unyank/:version': 'packages.setFlag',
  'POST /api/v1/packages/:vendor/:name/deprecate/:version': 'packages.setFlag',
  'POST /api/v1/packages/:vendor/:name/validate': 'packages.validate',
  'POST /api/v1/packages/:vendor/:name/artifacts': 'artifacts.upload',
  'GET /api/v1/stats': 'stats.overview',
  'GET /api/v1/stats/daily': 'stats.daily',
  'GET /api/v1/stats/packages/:vendor/:name': 'stats.package',
  'GET /api/v1/stats/packages/:vendor/:name/versions/:version': 'stats.version',
  'GET /api/v1/settings': 'settings.get',
  'PATCH /api/v1/settings': 'settings.update',
  'GET /api/v1/license': READ,
  'GET /api/v1/session': READ,
  'GET /api/v1/webhooks/deliveries': READ,
  'GET /api/v1/tasks': 'tasks.list',
  'POST /api/v1/tasks': 'tasks.create',
  'GET /api/v1/tasks/pending': 'tasks.list',
  'GET /api/v1/tasks/running': 'tasks.list',
  'GET /api/v1/tasks/failed': 'tasks.list',
  'GET /api/v1/tasks/:id': 'tasks.get',
  'POST /api/v1/tasks/sync-all': 'tasks.queueSyncAll',
  'POST /api/v1/tasks/cleanup': 'tasks.queueCleanup',
  'GET /api/v1/audit': 'audit.list',
  'GET /api/v1/events': 'events.list',
  'GET /api/v1/webhook-endpoints': 'outgoingWebhooks.list',
  'POST /api/v1/webhook-endpoints': 'outgoingWebhooks.create',
  'GET /api/v1/webhook-endpoints/:id': 'outgoingWebhooks.get',
  'PATCH /api/v1/webhook-endpoints/:id': 'outgoingWebhooks.update',
  'DELETE /api/v1/webhook-endpoints/:id': 'outgoingWebhooks.delete',
  'GET /api/v1/webhook-endpoints/:id/deliveries': 'outgoingWebhooks.deliveries',
  'POST /api/v1/webhook-endpoints/:id/deliveries/:delivery_id/redeliver':
    'outgoingWebhooks.redeliver',
  'POST /api/v1/webhook-endpoints/:id/ping': 'outgoingWebhooks.ping',
  'GET /api/v1/team/tokens': 'team.list',
  'POST /api/v1/team/tokens': 'team.create',
  'DELETE /api/v1/team/tokens/:id': 'team.revoke',
  'GET /api/v1/oauth/connections': 'oauth.list',
  'GET /api/v1/oauth/:provider/status': 'oauth.status',
  'POST /api/v1/oauth/:provider/initiate': 'oauth.initiate',
  'POST /api/v1/oauth/:provider/disconnect': 'oauth.disconnect',
  'GET /api/v1/hostapp/status': 'hostApp.status',
  'GET /api/v1/hostapp/install-url': 'hostApp.installUrl',
  'GET /api/v1/hostapp/installations': 'hostApp.list',
  'POST /api/v1/hostapp/installations/claim': 'hostApp.claim',
  'POST /api/v1/hostapp/installations/claim-link': 'hostApp.claimLink',
  'GET /api/v1/hostapp/installations/by-host-id/:id': 'hostApp.getByHostId',
  'GET /api/v1/hostapp/installations/:id': 'hostApp.get',
  'GET /api/v1/hostapp/installations/:id/repositories': 'hostApp.repositories',
  'POST /api/v1/hostapp/installations/:id/sync': 'hostApp.queueSync',
  'GET /api/v1/proxy/status': 'proxyAdmin.status',
  'GET /api/v1/proxy/stats': 'proxyAdmin.stats',
  'GET /api/v1/proxy/alerts': 'proxyAdmin.alerts',
  'POST /api/v1/proxy/purge': 'proxyAdmin.purge',
  'POST /api/v1/proxy/freeze/:vendor/:name': 'proxyAdmin.freeze',
  'POST /api/v1/proxy/unfreeze/:vendor/:name': 'proxyAdmin.unfreeze',
  'GET /api/v1/advisories': 'advisories.list',
  'POST /api/v1/advisories': 'advisories.create',
  'GET /api/v1/advisories/:id': 'advisories.get',
  'PATCH /api/v1/advisories/:id': 'advisories.update',
  'DELETE /api/v1/advisories/:id': 'advisories.delete',
  'GET /api/v1/vulnerabilities': 'vulnerabilities.list',
  'GET /api/v1/vulnerabilities/:id': 'vulnerabilities.get',
  'POST /api/v1/vulnerabilities/scan': 'advisories.queueScan',
  // The customer portal (docs/portal.md).
  'GET /api/v1/portal': 'portal.branding',
  'GET /api/v1/me': 'portal.me',
  'GET /api/v1/me/packages': 'portal.packages',
  'GET /api/v1/me/packages/:vendor/:name': 'portal.package',
  'GET /api/v1/me/tokens': 'portal.tokens',
  'POST /api/v1/me/tokens': 'portal.createToken',
  'DELETE /api/v1/me/tokens/:token_id': 'portal.revokeToken',
  // The platform API (Cloud, PLATFORM_ADMIN_TOKEN).
  'GET /api/v1/tenants': 'tenants.list',
  'POST /api/v1/tenants': 'tenants.create',
  'GET /api/v1/tenants/:id': 'tenants.get',
  'PATCH /api/v1/tenants/:id': 'tenants.update',
  'DELETE /api/v1/tenants/:id': 'tenants.delete',
  'GET /api/v1/tenants/:id/usage': 'tenants.usageOf',
  'GET /api/v1/tenants/:id/notifications': 'tenants.notificationsOf',
  'POST /api/v1/tenants/:id/suspend': 'tenants.update',
  'POST /api/v1/tenants/:id/reactivate': 'tenants.update',
  'POST /api/v1/tenants/:id/change-plan': 'tenants.update',
};

/** The rule of a service operation (`<area>.<method>`). */
export function ruleOf(operation: Operation): Rule {
  const [area, method] = operation.split('.') as [Area, string];
  const rule = (POLICY[area] as Record<string, Rule | undefined>)[method];
  if (!rule) throw new Error(`${operation} has no rule in POLICY`);
  return rule;
}

/** HEAD runs the GET route's handler, so it has the GET route's operation. */
const keyOf = (method: string, url: string | undefined) =>
  `${method === 'HEAD' ? 'GET' : method} ${url ?? ''}`;

function entryOf(method: string, url: string | undefined): Operation | Rule | undefined {
  const key = keyOf(method, url);
  return Object.hasOwn(ROUTE_OPERATIONS, key) ? ROUTE_OPERATIONS[key] : undefined;
}

/** The rule a request of `method` on the registered `url` must pass; none listed refuses. */
export function routeRule(method: string, url: string | undefined): Rule {
  const entry = entryOf(method, url);
  if (entry === undefined) throw forbidden(`${keyOf(method, url)} names no operation`);
  return typeof entry === 'string' ? ruleOf(entry) : entry;
}

/**
 * Refuses, at registration, a route that names no operation, and a route marked public whose
 * operation not anyone may run (it would run as the anonymous actor).
 */
export function assertRouteOperation(route: RouteOptions): void {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  for (const method of methods) {
    const key = keyOf(method, route.url);
    if (entryOf(method, route.url) === undefined) {
      throw new Error(`${key} names no operation in http/route-operations.ts`);
    }
    if (route.config?.auth?.public && !routeRule(method, route.url).public) {
      throw new Error(`${key} is public, but its operation is not PUBLIC`);
    }
  }
}
