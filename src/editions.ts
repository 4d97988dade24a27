import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Edition } from './config/index.js';
import { featureNotAvailable } from './errors.js';

/**
 * THE one place that says which edition has which feature (docs/operations.md). Every gated
 * route, REST, Composer or GraphQL, asks here; nothing else compares edition names.
 */
export const FEATURES = [
  'graphql',
  'vulnerabilities',
  'security_advisories',
  'proxy',
  'audit_log',
  'outgoing_webhooks',
  'tenants',
] as const;
export type Feature = (typeof FEATURES)[number];

export interface EditionProfile {
  features: readonly Feature[];
  /** Largest GraphQL query complexity; null = unlimited (or no GraphQL at all on community). */
  graphqlComplexityLimit: number | null;
}

const PRO_FEATURES: readonly Feature[] = [
  'graphql',
  'vulnerabilities',
  'security_advisories',
  'proxy',
  'audit_log',
  'outgoing_webhooks',
];

export const EDITION_MATRIX: Readonly<Record<Edition, EditionProfile>> = Object.freeze({
  community: { features: [], graphqlComplexityLimit: null },
  pro: { features: PRO_FEATURES, graphqlComplexityLimit: 500 },
  enterprise: { features: PRO_FEATURES, graphqlComplexityLimit: null },
  cloud: { features: [...PRO_FEATURES, 'tenants'], graphqlComplexityLimit: 1000 },
});

/** The lowest edition that has the feature, for error messages. */
const FIRST_EDITION: Record<Feature, string> = {
  graphql: 'Pro',
  vulnerabilities: 'Pro',
  security_advisories: 'Pro',
  proxy: 'Pro',
  audit_log: 'Pro',
  outgoing_webhooks: 'Pro',
  tenants: 'Cloud',
};

const LABEL: Record<Feature, string> = {
  graphql: 'GraphQL',
  vulnerabilities: 'Vulnerabilities',
  security_advisories: 'Security advisories',
  proxy: 'The proxy/mirror',
  audit_log: 'The audit log',
  outgoing_webhooks: 'The event feed and outgoing webhooks',
  tenants: 'The tenants API',
};

/**
 * The path prefixes of each gated group of service.md ("Edition-limited groups"). A request
 * no route answers under one of them, on an edition without the feature, is refused with
 * FEATURE_NOT_AVAILABLE rather than 404, before any token is looked at, as gated routes do.
 */
const FEATURE_PATHS: readonly (readonly [string, Feature])[] = [
  ['/api/v1/tenants', 'tenants'],
  ['/api/v1/vulnerabilities', 'vulnerabilities'],
  ['/api/v1/advisories', 'security_advisories'],
  ['/api/v1/proxy', 'proxy'],
  ['/api/v1/events', 'outgoing_webhooks'],
  ['/api/v1/webhook-endpoints', 'outgoing_webhooks'],
  ['/dist-proxy', 'proxy'],
  ['/api/security-advisories', 'security_advisories'],
  ['/security-advisories.json', 'security_advisories'],
];

/** The feature whose group `path` (without query) belongs to, or null. */
export function featureOfPath(path: string): Feature | null {
  for (const [prefix, feature] of FEATURE_PATHS) {
    if (path === prefix || path.startsWith(`${prefix}/`)) return feature;
  }
  return null;
}

export function hasFeature(edition: Edition, feature: Feature): boolean {
  return EDITION_MATRIX[edition].features.includes(feature);
}

export function featuresOf(edition: Edition): Feature[] {
  return [...EDITION_MATRIX[edition].features];
}

export function graphqlComplexityLimit(edition: Edition): number | null {
  return EDITION_MATRIX[edition].graphqlComplexityLimit;
}

/** Throws FEATURE_NOT_AVAILABLE (403) unless the edition has the feature. */
export function assertFeature(edition: Edition, feature: Feature): void {
  if (!hasFeature(edition, feature)) {
    const needs =
      FIRST_EDITION[feature] === 'Cloud' ? 'the Cloud edition' : 'the Pro edition or higher';
    throw featureNotAvailable(`${LABEL[feature]} needs ${needs} (this is ${edition})`);
  }
}

/**
 * A preHandler (or onRequest) hook for routes of a feature:
 * `{ preHandler: requireFeature('audit_log') }`. It reads the edition from the app's config.
 */
export function requireFeature(feature: Feature) {
  return async function featureGate(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    assertFeature(request.server.services.deps.config.edition, feature);
  };
}
