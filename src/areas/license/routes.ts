import type { Static } from 'typebox';
import type { App } from '../../http/app-types.js';
import { ErrorBodySchema } from '../../http/schemas.js';
import type { Config } from '../../config.js';
import { featuresOf, graphqlComplexityLimit } from '../../editions.js';
import { LicenseSchema } from './schema.js';

type License = Static<typeof LicenseSchema>;

const unlimitedIfZero = (n: number): number | null => (n > 0 ? n : null);

export function presentLicense(config: Readonly<Config>): License {
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
  const license = presentLicense(app.services.deps.config);
  app.get(
    '/license',
    {
      schema: {
        tags: ['license'],
        summary: 'Edition, licensee, expiry, features and limits',
        response: { 200: LicenseSchema, 401: ErrorBodySchema },
      },
    },
    async () => license,
  );
}
