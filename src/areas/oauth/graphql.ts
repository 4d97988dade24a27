import type { GraphqlPart } from '../../graphql/kit.js';
import { camelKeys, query } from '../../graphql/kit.js';
import { presentConnection } from './presenter.js';

export const oauthGraphql: GraphqlPart = {
  typeDefs: /* GraphQL */ `
    type OAuthConnection {
      id: ID!
      provider: String!
      accountLogin: String
      scopes: [String!]!
      expiresAt: DateTime
      createdAt: DateTime!
      updatedAt: DateTime!
    }

    extend type Query {
      oauthConnections: [OAuthConnection!]!
    }
  `,

  Query: {
    oauthConnections: query(async (_args, ctx, s) =>
      (await s.oauth.list(ctx)).rows.map((row) => camelKeys(presentConnection(row))),
    ),
  },
};
