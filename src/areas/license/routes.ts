import type { Static } from 'typebox';
import type { App } from '../../http/app-types.js';
import { ErrorBodySchema } from '../../http/schemas.js';
import type { Config } from '../../config/index.js';
import type { PlanLimits } from '../../config/cloud.js';
import { featuresOf, graphqlComplexityLimit } from '../../editions.js';
import { LicenseSchema } from './schema.js';

type License = Static<typeof LicenseSchema>;

const unlimitedIfZero = (n: number): number | null => (n > 0 ? n : null);

/** The installation's license; in Cloud, `plan` (the tenant's) sets the limits. */
export function presentLicense(config: Readonly<Config>, plan: PlanLimits | null = null): License {
  if (plan) {
    const license = presentLicense(config);
    return {
      ...license,
      limits: {
        graphql_complexity: plan.graphql_complexity,
        bandwidth_bytes: plan.bandwidth_bytes,
        storage_bytes: plan.storage_bytes,
      },
    };
  }
  return {
    edition: config.edition,
    licensee: config.licensee,
    expires_at: config.licenseExpiresAt,
    features: featuresOf(config.edition),
    limits: {
      graphql_complexity: graphqlComplexityLimit(config.edition),
      bandwidth_bytes: unlimitedIfZero(config.bandwidthLimitBytes),
      storage_bytes: unlimitedIfZero(config.storageLimitBytes),
    },
  };
}

/** The edition, licensee and limits this installation runs with. Any admin level may read it. */
export async function licenseRoutes(app: App): Promise<void> {
  const { config } = app.services.deps;
  const license = presentLicense(config);
  const limits = app.services.composer.usage.limits;
  app.get(
    '/license',
    {
      schema: {
        tags: ['license'],
        summary: 'Edition, licensee, expiry, features and limits',
        response: { 200: LicenseSchema, 401: ErrorBodySchema },
      },
    },
    async (req) => {
      const plan = await limits.plan(req.tenantId);
      return plan ? presentLicense(config, plan) : license;
    },
  );
}
