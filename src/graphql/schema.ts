import { graphqlParts } from './parts.js';

/** What every part builds on: scalars, pages, and the root types the parts extend. */
const sharedTypeDefs = /* GraphQL */ `
  scalar DateTime
  scalar JSON

  type PageInfo {
    hasNextPage: Boolean!
    endCursor: String
  }

  input Pagination {
    first: Int
    after: String
  }

  type Query
  type Mutation
`;

/** Subscriptions span areas (syncs, customer activity); their resolvers are in subscriptions.ts. */
const subscriptionTypeDefs = /* GraphQL */ `
  enum CustomerActivityType {
    DOWNLOAD
    TOKEN_CREATED
    TOKEN_REVOKED
    ACCESS_GRANTED
    ACCESS_REVOKED
    STATUS_CHANGED
  }

  type PackageSyncEvent {
    package: String!
    status: String!
    versionsAdded: [String!]!
    versionsRemoved: [String!]!
    error: String
    syncedAt: DateTime!
  }

  type CustomerActivityEvent {
    customerId: ID!
    type: CustomerActivityType!
    package: String
    version: String
    at: DateTime!
  }

  type Subscription {
    packageSynced(name: String): PackageSyncEvent!
    customerActivity(customerId: ID): CustomerActivityEvent!
  }
`;

/**
 * The GraphQL schema (service.md section 4 "GraphQL", docs/graphql.md), assembled from the
 * areas' parts. Field names are the camelCase forms of the REST fields; every resolver calls the
 * same services as the REST routes.
 */
export const typeDefs = [
  sharedTypeDefs,
  ...graphqlParts.map((part) => part.typeDefs),
  subscriptionTypeDefs,
].join('\n');
