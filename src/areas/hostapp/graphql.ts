import type { GraphqlPart } from '../../graphql/kit.js';
import { camelKeys, mutation, query } from '../../graphql/kit.js';
import { presentInstallation, presentStatus } from './presenter.js';

export const hostAppGraphql: GraphqlPart = {
  typeDefs: /* GraphQL */ `
    type HostAppStatus {
      configured: Boolean!
      appId: String
      appSlug: String
    }

    type HostAppInstallation {
      id: ID!
      accountLogin: String!
      accountType: String!
      repositorySelection: String!
      status: String!
    }

    extend type Query {
      hostAppStatus: HostAppStatus!
      hostAppInstallations: [HostAppInstallation!]!
    }

    extend type Mutation {
      removeHostAppInstallation(id: ID!): Boolean!
    }
  `,

  Query: {
    hostAppStatus: query(async (_args, ctx, s) =>
      camelKeys(presentStatus(await s.hostApp.status(ctx))),
    ),
    hostAppInstallations: query(async (_args, ctx, s) =>
      (await s.hostApp.list(ctx)).rows.map((row) => camelKeys(presentInstallation(row))),
    ),
  },

  Mutation: {
    removeHostAppInstallation: mutation<{ id: string }>(async ({ id }, ctx, s) => {
      await s.hostApp.remove(ctx, id);
      return true;
    }),
  },
};
