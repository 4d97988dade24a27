import type { Actor, Ctx } from '../../context.js';
import type { Edition } from '../../config.js';
import { assertFeature } from '../../editions.js';
import type { Feature } from '../../editions.js';
import { forbidden, unauthorized } from '../../errors.js';

/** What an operation needs of the caller. */
export interface Rule {
  /** Changes something (or may, like validate): viewers are read-only. */
  write?: boolean;
  /** Owner-level admins only (team management). */
  owner?: boolean;
  /** Customer tokens with one of these scopes may call it too (admins always may). */
  customerScopes?: readonly string[];
  /** The edition must have this feature. */
  feature?: Feature;
}

/** Any admin level may read; customers may not. The rule of an operation the policy omits. */
export const READ: Rule = {};
export const WRITE: Rule = { write: true };

/**
 * Decides whether `actor` may run an operation with this rule; throws FORBIDDEN (or
 * FEATURE_NOT_AVAILABLE) otherwise. Background work (`system`) and signed inbound webhooks
 * (`webhook`) were authenticated otherwise and may run anything.
 */
export function authorize(
  actor: Actor | null | undefined,
  rule: Rule,
  edition: Edition,
  operation = 'this operation',
): void {
  if (rule.feature) assertFeature(edition, rule.feature);
  if (!actor) throw unauthorized('Missing bearer token');
  switch (actor.kind) {
    case 'system':
    case 'webhook':
      return;
    case 'customer':
      if (!rule.customerScopes) {
        throw forbidden('Customer tokens may not call this endpoint of the admin API');
      }
      if (!rule.customerScopes.includes(actor.scope)) {
        throw forbidden(`Token scope "${actor.scope}" may not call this endpoint`);
      }
      return;
    default:
      if (rule.write && actor.level === 'viewer') throw forbidden('Viewer tokens are read-only');
      if (rule.owner && actor.level !== 'owner') {
        throw forbidden(`Only owner tokens may call ${operation}`);
      }
  }
}

/** Whether `value` is a service call context (the first argument of every principal-facing call). */
function isCtx(value: unknown): value is Ctx {
  return typeof value === 'object' && value !== null && 'actor' in value && 'tenantId' in value;
}

/**
 * Wraps a service so that every method called with a `Ctx` first argument is authorized by its
 * rule in `policy` (an omitted method is `READ`), whatever transport called it. Calls between
 * services go to the unwrapped instances (`this` inside a method is the service itself).
 */
export function guard<T extends object>(
  area: string,
  service: T,
  policy: Partial<Record<keyof T, Rule>>,
  edition: Edition,
): T {
  const rules = policy as Record<string | symbol, Rule | undefined>;
  const wrapped = new Map<string | symbol, unknown>();
  return new Proxy(service, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      let fn = wrapped.get(prop);
      if (!fn) {
        const rule = rules[prop] ?? READ;
        const method = value as (...args: unknown[]) => unknown;
        const operation = `${area}.${String(prop)}`;
        fn = (...args: unknown[]) => {
          if (isCtx(args[0])) {
            // Operations called with a Ctx answer promises: a refusal is a rejected one.
            try {
              authorize(args[0].actor, rule, edition, operation);
            } catch (err) {
              return Promise.reject(err instanceof Error ? err : new Error(String(err)));
            }
          }
          return method.apply(target, args);
        };
        wrapped.set(prop, fn);
      }
      return fn;
    },
  });
}
