import type { Env } from './values.js';
import { ConfigError } from './error.js';

/** What a Cloud plan allows; null = unlimited (docs/cloud.md). */
export interface PlanLimits {
  bandwidth_bytes: number | null;
  storage_bytes: number | null;
  packages: number | null;
  customers: number | null;
  graphql_complexity: number | null;
}

/** Settings of the Cloud edition (docs/cloud.md). */
export interface CloudSettings {
  /** The platform API's token (PLATFORM_ADMIN_TOKEN); null = the platform API refuses everyone. */
  platformAdminToken: string | null;
  /** Plans by name, in the order given; the first is the default (CLOUD_PLANS). */
  plans: Readonly<Record<string, PlanLimits>>;
}

const GIB = 1024 ** 3;

export const DEFAULT_PLANS: Readonly<Record<string, PlanLimits>> = {
  starter: {
    bandwidth_bytes: 10 * GIB,
    storage_bytes: GIB,
    packages: 25,
    customers: 50,
    graphql_complexity: 500,
  },
  business: {
    bandwidth_bytes: 100 * GIB,
    storage_bytes: 10 * GIB,
    packages: 250,
    customers: 1000,
    graphql_complexity: 1000,
  },
  enterprise: {
    bandwidth_bytes: null,
    storage_bytes: null,
    packages: null,
    customers: null,
    graphql_complexity: null,
  },
};

const LIMIT_KEYS = [
  'bandwidth_bytes',
  'storage_bytes',
  'packages',
  'customers',
  'graphql_complexity',
] as const;

export function cloudSettings(env: Env): CloudSettings {
  const token = env.PLATFORM_ADMIN_TOKEN?.trim() || null;
  if (token !== null && token.length < 16) {
    throw new ConfigError('PLATFORM_ADMIN_TOKEN must be at least 16 characters long');
  }
  return { platformAdminToken: token, plans: plans(env.CLOUD_PLANS) };
}

function plans(raw: string | undefined): Record<string, PlanLimits> {
  if (!raw?.trim()) return { ...DEFAULT_PLANS };
  const fail = (why: string) => new ConfigError(`CLOUD_PLANS ${why}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw fail('must be JSON: {"<plan>": {"bandwidth_bytes": …, "storage_bytes": …, …}}');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw fail('must be a JSON object of plans');
  }
  const out: Record<string, PlanLimits> = {};
  for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (!/^[a-z0-9][a-z0-9_-]{0,62}$/.test(name)) throw fail(`has an invalid plan name "${name}"`);
    if (typeof value !== 'object' || value === null) throw fail(`plan ${name} must be an object`);
    const limits = value as Record<string, unknown>;
    const unknown = Object.keys(limits).filter(
      (k) => !(LIMIT_KEYS as readonly string[]).includes(k),
    );
    if (unknown.length > 0) throw fail(`plan ${name} has unknown keys: ${unknown.join(', ')}`);
    const plan = {} as PlanLimits;
    for (const key of LIMIT_KEYS) {
      const v = limits[key] ?? null;
      if (v !== null && (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)) {
        throw fail(`plan ${name}: ${key} must be a whole number ≥ 0 or null`);
      }
      plan[key] = v;
    }
    out[name] = plan;
  }
  if (Object.keys(out).length === 0) throw fail('must name at least one plan');
  return out;
}
