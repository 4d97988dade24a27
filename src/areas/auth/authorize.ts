import type { Actor, Ctx } from '../../context.js';
import type { Edition } from '../../config/index.js';
import { assertFeature } from '../../editions.js';
import type { Feature } from '../../editions.js';
import { forbidden, unauthorized } from '../../errors.js';

/** What an operation needs of the caller. Every operation has one, in POLICY (policy.ts). */
export interface Rule {
  /** Changes something (or may, like validate): viewers are read-only. */
  write?: boolean;
  /** Owner-level admins only (team management). */
  owner?: boolean;
  /** Customer tokens with one of these scopes may call it too (admins always may). */
  customerScopes?: readonly string[];
  /** The edition must have this feature. */
  feature?: Feature;
  /** The Cloud edition's platform API: the platform actor (PLATFORM_ADMIN_TOKEN) only. */
  platform?: boolean;
  /**
   * Anyone may run it, the anonymous actor included and without a Ctx: it authenticates the
   * caller by a secret of its own (an OAuth state, a claim proof).
   */
  public?: boolean;
  /**
   * Not an operation of any API: background work (`system`) and signed inbound webhooks
   * (`webhook`) only, through a Ctx; one that takes no Ctx is reachable only unguarded.
   */
  internal?: boolean;
}

/** Any admin level may read; customers may not. */
export const READ: Rule = {};
export const WRITE: Rule = { write: true };
export const PLATFORM: Rule = { platform: true };
export const PUBLIC: Rule = { public: true };
export const INTERNAL: Rule = { internal: true };

/** Who a route that authenticates nobody runs as: it may run only `PUBLIC` operations. */
export const ANONYMOUS: Actor = { kind: 'anonymous', id: null };
/** Who the platform API (PLATFORM_ADMIN_TOKEN) runs as: it may run only `PLATFORM` operations. */
export const PLATFORM_ACTOR: Actor = { kind: 'platform', id: null };

/**
 * Decides whether `actor` may run an operation with this rule; throws UNAUTHORIZED, FORBIDDEN
 * (or FEATURE_NOT_AVAILABLE) otherwise. Background work (`system`) was authenticated otherwise
 * and may run anything; signed inbound webhooks (`webhook`) anything but the platform's.
 */
export function authorize(
  actor: Actor | null | undefined,
  rule: Rule,
  edition: Edition,
  operation = 'this operation',
): void {
  if (rule.feature) assertFeature(edition, rule.feature);
  if (rule.public) return;
  if (!actor || actor.kind === 'anonymous') throw unauthorized('Missing bearer token');
  switch (actor.kind) {
    case 'system':
      return;
    case 'webhook':
      if (rule.platform) throw forbidden(`Only the platform API may call ${operation}`);
      return;
    case 'platform':
      if (!rule.platform) throw forbidden(`The platform token may not call ${operation}`);
      return;
    case 'customer':
      if (!rule.customerScopes || rule.internal || rule.platform) {
        throw forbidden('Customer tokens may not call this endpoint of the admin API');
      }
      if (!rule.customerScopes.includes(actor.scope)) {
        throw forbidden(`Token scope "${actor.scope}" may not call this endpoint`);
      }
      return;
    default:
      if (rule.internal) throw forbidden(`Only background work may call ${operation}`);
      if (rule.platform) throw forbidden(`Only the platform API may call ${operation}`);
      if (rule.write && actor.level === 'viewer') throw forbidden('Viewer tokens are read-only');
      if (rule.owner && actor.level !== 'owner') {
        throw forbidden(`Only owner tokens may call ${operation}`);
      }
  }
}

const ACTOR_KINDS: Record<Actor['kind'], true> = {
  root: true,
  cma: true,
  customer: true,
  system: true,
  webhook: true,
  platform: true,
  anonymous: true,
};

/**
 * Whether `value` is a service call context: a plain object (never a transport's request) with
 * a tenant and an actor of a known kind.
 */
export function isCtx(value: unknown): value is Ctx {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  const { tenantId, actor } = value as { tenantId?: unknown; actor?: { kind?: unknown } | null };
  return (
    typeof tenantId === 'string' &&
    typeof actor === 'object' &&
    actor !== null &&
    typeof actor.kind === 'string' &&
    Object.hasOwn(ACTOR_KINDS, actor.kind)
  );
}

/** Each guarded service's own instance, for `unguarded`. */
const instances = new WeakMap<object, object>();

/**
 * Wraps a service so that every call is authorized by its method's rule in `policy`, whatever
 * transport called it. Deny by default: a method without a rule refuses; a call whose first
 * argument is not a `Ctx` refuses (but for `PUBLIC` operations); members that are not methods
 * are not on the guarded surface. A refusal is a rejected promise. Calls between services go to
 * the unwrapped instances (`this` inside a method is the service itself).
 */
export function guard<T extends object>(
  area: string,
  service: T,
  policy: Readonly<Record<string, Rule>>,
  edition: Edition,
): T {
  // Boot check: a rule names a method of the service (the compiler checks the converse).
  for (const name of Object.keys(policy)) {
    if (typeof Reflect.get(service, name) !== 'function') {
      throw new Error(`POLICY.${area}.${name} names no method of the service`);
    }
  }
  const wrapped = new Map<string, unknown>();
  const proxy = new Proxy(service, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof prop === 'symbol' || value === undefined) return value;
      if (typeof value !== 'function') {
        throw new Error(`${area}.${prop} is not an operation: the guarded service has none such`);
      }
      let fn = wrapped.get(prop);
      if (!fn) {
        const rule = Object.hasOwn(policy, prop) ? policy[prop] : undefined;
        const method = value as (...args: unknown[]) => unknown;
        const operation = `${area}.${prop}`;
        fn = (...args: unknown[]) => {
          try {
            if (!rule) throw forbidden(`${operation} has no rule in the authorization policy`);
            const ctx = args[0];
            if (rule.public) authorize(null, rule, edition, operation);
            else if (!isCtx(ctx)) throw unauthorized(`${operation} was called without a context`);
            else authorize(ctx.actor, rule, edition, operation);
          } catch (err) {
            return Promise.reject(err instanceof Error ? err : new Error(String(err)));
          }
          return method.apply(target, args);
        };
        wrapped.set(prop, fn);
      }
      return fn;
    },
  });
  instances.set(proxy, service);
  return proxy;
}

/**
 * The instance behind a guarded service, past every rule: for wiring and tests that drive
 * background work (an import, a retention run), never for a transport (policy.test.ts checks).
 * The reason is for the reader, like `unscoped`'s.
 */
export function unguarded<T extends object>(service: T, _reason: string): T {
  return (instances.get(service) as T | undefined) ?? service;
}
