import type { GraphqlPart, Loader } from '../../graphql/kit.js';
import { camelKeys, compact, mutation, need } from '../../graphql/kit.js';
import { validateInput } from '../../validation.js';
import { customerOf } from '../customers/graphql.js';
import type { GqlCustomer } from '../customers/graphql.js';
import { presentAccess } from './presenter.js';
import { GrantBody } from './schema.js';
import { accessOfCustomers } from './store.js';
import type { AccessRow } from './store.js';

/** GraphQL names the granted package `name`; the other fields differ from REST by case only. */
function accessOf(row: AccessRow) {
  const { package: name, ...rest } = camelKeys(presentAccess(row));
  return { name, ...rest };
}

const customerPackages: Loader<GqlCustomer> = async (queries, context) => {
  const ctx = need(context);
  const byCustomer = await accessOfCustomers(
    context.services.deps.db,
    ctx.tenantId,
    queries.map((q) => q.obj.id),
  );
  return queries.map((q) => (byCustomer.get(q.obj.id) ?? []).map(accessOf));
};

export const accessGraphql: GraphqlPart = {
  typeDefs: /* GraphQL */ `
    type PackageAccess {
      name: String!
      constraint: String!
      grantedAt: DateTime!
      viaCollection: String
    }

    input PackageAccessInput {
      package: String!
      constraint: String
    }

    extend type Mutation {
      grantPackageAccess(customerId: ID!, packages: [PackageAccessInput!]!): Customer!
      revokePackageAccess(customerId: ID!, packageName: String!): Customer!
    }
  `,

  Mutation: {
    grantPackageAccess: mutation<{
      customerId: string;
      packages: { package: string; constraint?: string | null }[];
    }>(async ({ customerId, packages }, ctx, s) => {
      const grants = packages.map((p) =>
        validateInput(
          GrantBody,
          compact({ package: p.package, constraint: p.constraint ?? undefined }),
          'packages',
        ),
      );
      // Documented GraphQL behaviour: each grant is added, or its constraint updated when the
      // customer already has it (REST POST answers 409 there instead), all or none.
      await s.access.grantEach(ctx, customerId, grants);
      return customerOf(await s.customers.get(ctx, customerId));
    }),
    revokePackageAccess: mutation<{ customerId: string; packageName: string }>(
      async ({ customerId, packageName }, ctx, s) => {
        await s.access.revoke(ctx, customerId, packageName);
        return customerOf(await s.customers.get(ctx, customerId));
      },
    ),
  },

  loaders: { Customer: { packages: customerPackages } },
};
