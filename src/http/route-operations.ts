import type { RouteOptions } from 'fastify';
import { POLICY } from '../areas/auth/policy.js';
import { READ } from '../areas/auth/authorize.js';
import type { Rule } from '../areas/auth/authorize.js';

type Area = keyof typeof POLICY;
/** `<area>.<method>` of a service operation that POLICY has a rule for. */
export type Operation = {
  [A in Area]: `${A}.${Extract<keyof (typeof POLICY)[A], string>}`;
}[Area];

/**
 * Which service operation each admin API route that is not a read runs (the route's path as
 * registered under /api/v1). The REST hook authorizes it by that operation's rule before the
 * body is even parsed, so a viewer's POST is 403 whatever its body; the service checks again.
 * A non-GET admin route missing here fails at boot (`assertRouteOperation`).
 */
export const ROUTE_OPERATIONS: Readonly<Record<string, Operation>> = {
  'POST /api/v1/customers': 'customers.create',
  'PATCH /api/v1/customers/:id': 'customers.update',
  'DELETE /api/v1/customers/:id': 'customers.delete',
  'POST /api/v1/customers/:id/suspend': 'customers.suspend',
  'POST /api/v1/customers/:id/reactivate': 'customers.reactivate',
  'POST /api/v1/customers/:id/freeze': 'customers.freeze',
  'POST /api/v1/customers/:id/packages': 'access.grant',
  'PUT /api/v1/customers/:id/packages': 'access.replace',
  'DELETE /api/v1/customers/:id/packages/:vendor/:name': 'access.revoke',
  'POST /api/v1/customers/:id/collections': 'access.grantCollection',
  'DELETE /api/v1/customers/:id/collections/:slug': 'access.revokeCollection',
  'POST /api/v1/customers/:id/tokens': 'tokens.create',
  'DELETE /api/v1/customers/:id/tokens/:token_id': 'tokens.revoke',
  'POST /api/v1/customers/:id/tokens/:token_id/rotate': 'tokens.rotate',
  'POST /api/v1/customers/:id/token/regenerate': 'tokens.regenerate',
  'DELETE /api/v1/customers/:id/token': 'tokens.revokeAll',
  'POST /api/v1/customers/:id/jwt': 'tokens.issueJwt',
  'POST /api/v1/collections': 'collections.create',
  'PATCH /api/v1/collections/:slug': 'collections.update',
  'DELETE /api/v1/collections/:slug': 'collections.delete',
  'POST /api/v1/packages': 'packages.add',
  'DELETE /api/v1/packages/:vendor/:name': 'packages.delete',
  'POST /api/v1/packages/:vendor/:name/sync': 'packages.requestSync',
  'POST /api/v1/packages/:vendor/:name/monorepo/sync': 'monorepos.sync',
  'POST /api/v1/packages/:vendor/:name/yank/:version': 'packages.setFlag',
  'POST /api/v1/packages/:vendor/:name/unyank/:version': 'packages.setFlag',
  'POST /api/v1/packages/:vendor/:name/deprecate/:version': 'packages.setFlag',
  'POST /api/v1/packages/:vendor/:name/validate': 'packages.validate',
  'POST /api/v1/packages/:vendor/:name/artifacts': 'artifacts.upload',
  'PATCH /api/v1/settings': 'settings.update',
  'POST /api/v1/hostapp/installations/claim-link': 'hostApp.claimLink',
  'POST /api/v1/tasks': 'tasks.create',
  'POST /api/v1/tasks/sync-all': 'tasks.queueSyncAll',
  'POST /api/v1/tasks/cleanup': 'tasks.queueCleanup',
  'POST /api/v1/team/tokens': 'team.create',
  'DELETE /api/v1/team/tokens/:id': 'team.revoke',
  'POST /api/v1/oauth/:provider/initiate': 'oauth.initiate',
  'POST /api/v1/oauth/:provider/disconnect': 'oauth.disconnect',
  'POST /api/v1/hostapp/installations/claim': 'hostApp.claim',
  'POST /api/v1/hostapp/installations/:id/sync': 'hostApp.queueSync',
  'POST /api/v1/proxy/purge': 'proxyAdmin.purge',
  'POST /api/v1/advisories': 'advisories.create',
  'PATCH /api/v1/advisories/:id': 'advisories.update',
  'DELETE /api/v1/advisories/:id': 'advisories.delete',
  'POST /api/v1/vulnerabilities/scan': 'advisories.queueScan',
  'POST /api/v1/proxy/freeze/:vendor/:name': 'proxyAdmin.freeze',
  'POST /api/v1/proxy/unfreeze/:vendor/:name': 'proxyAdmin.unfreeze',
};

const READ_METHODS = new Set(['GET', 'HEAD']);

/** The rule of a service operation (`<area>.<method>`). */
export function ruleOf(operation: Operation): Rule {
  const [area, method] = operation.split('.') as [Area, string];
  return (POLICY[area] as Record<string, Rule | undefined>)[method] ?? READ;
}

/** The rule the admin API applies to a request of `method` on the registered `url`. */
export function routeRule(method: string, url: string | undefined): Rule {
  const operation = ROUTE_OPERATIONS[`${method} ${url ?? ''}`];
  return operation ? ruleOf(operation) : READ;
}

/** Refuses, at registration, an admin route that writes without naming its operation. */
export function assertRouteOperation(route: RouteOptions): void {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  for (const method of methods) {
    if (READ_METHODS.has(method) || route.config?.auth?.public) continue;
    if (!ROUTE_OPERATIONS[`${method} ${route.url}`]) {
      throw new Error(`${method} ${route.url} names no operation in http/route-operations.ts`);
    }
  }
}
