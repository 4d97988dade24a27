import { accessGraphql } from '../areas/access/graphql.js';
import { auditGraphql } from '../areas/audit/graphql.js';
import { collectionsGraphql } from '../areas/collections/graphql.js';
import { customersGraphql } from '../areas/customers/graphql.js';
import { hostAppGraphql } from '../areas/hostapp/graphql.js';
import { oauthGraphql } from '../areas/oauth/graphql.js';
import { packagesGraphql } from '../areas/packages/graphql.js';
import { proxyGraphql } from '../areas/proxy/graphql.js';
import { statsGraphql } from '../areas/stats/graphql.js';
import { tokensGraphql } from '../areas/tokens/graphql.js';
import { assertFeature } from '../editions.js';
import type { GraphqlPart } from './kit.js';
import { query } from './kit.js';

/** Fields of domains that have no area yet: answered from what exists today, never failing. */
const laterGraphql: GraphqlPart = {
  typeDefs: /* GraphQL */ `
    type Vulnerability {
      id: ID!
      advisory: String!
      severity: String!
      affectedVersions: String!
      patchedVersions: String
      description: String
    }

    extend type Query {
      vulnerabilities(packageName: String): [Vulnerability!]!
    }
  `,
  Query: {
    vulnerabilities: query((_args, _ctx, s) => {
      assertFeature(s.deps.config.edition, 'vulnerabilities');
      return [];
    }),
  },
};

/** Every area's part of the GraphQL API; a new area adds its areas/<area>/graphql.ts here. */
export const graphqlParts: readonly GraphqlPart[] = [
  customersGraphql,
  accessGraphql,
  tokensGraphql,
  packagesGraphql,
  collectionsGraphql,
  statsGraphql,
  auditGraphql,
  hostAppGraphql,
  oauthGraphql,
  proxyGraphql,
  laterGraphql,
];
