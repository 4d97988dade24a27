import type { GraphqlPart } from '../../graphql/kit.js';
import { camelKeys, compact, lower, mutation, upper } from '../../graphql/kit.js';
import { validateInput } from '../../validation.js';
import { presentIssued } from './presenter.js';
import { CreateTokenBody } from './schema.js';
import type { IssuedToken } from './service.js';

/** The issued token under GraphQL's names: the scope as its enum, the nested objects mapped. */
function issuedOf(issued: IssuedToken, baseUrl: string) {
  const dto = presentIssued(issued, baseUrl);
  const token = camelKeys(dto.token);
  return {
    token: { ...token, scope: upper(token.scope) },
    plainToken: dto.plain_token,
    composerAuth: camelKeys(dto.composer_auth),
  };
}

export const tokensGraphql: GraphqlPart = {
  typeDefs: /* GraphQL */ `
    enum TokenScope {
      ADMIN
      DEVELOPER
      DOWNLOAD
      WEBHOOK
    }

    type ScopedToken {
      id: ID!
      name: String!
      scope: TokenScope!
      packageScopes: [String!]!
      expiresAt: DateTime
      createdAt: DateTime!
      lastUsedAt: DateTime
    }

    type ComposerAuth {
      username: String!
      password: String!
      repositoryUrl: String!
    }

    type ScopedTokenCreatedResponse {
      token: ScopedToken!
      plainToken: String!
      composerAuth: ComposerAuth!
    }

    "The legacy regenerate answer: the new token and its plain value."
    type TokenResponse {
      token: ScopedToken!
      plainToken: String!
      composerAuth: ComposerAuth!
    }

    input CreateTokenInput {
      name: String!
      scope: TokenScope
      packageScopes: [String!]
      expiresAt: DateTime
    }

    extend type Mutation {
      createToken(customerId: ID!, input: CreateTokenInput!): ScopedTokenCreatedResponse!
      revokeToken(customerId: ID!, tokenId: ID!): Boolean!
      rotateToken(customerId: ID!, tokenId: ID!): ScopedTokenCreatedResponse!
      regenerateToken(customerId: ID!): TokenResponse!
      revokeAllTokens(customerId: ID!): Boolean!
    }
  `,

  Mutation: {
    createToken: mutation<{
      customerId: string;
      input: {
        name: string;
        scope?: string | null;
        packageScopes?: string[] | null;
        expiresAt?: string | null;
      };
    }>(async ({ customerId, input }, ctx, s) => {
      const body = validateInput(
        CreateTokenBody,
        compact({
          name: input.name,
          scope: lower(input.scope),
          package_scopes: input.packageScopes ?? undefined,
          expires_at: input.expiresAt,
        }),
      );
      return issuedOf(await s.tokens.create(ctx, customerId, body), s.deps.config.baseUrl);
    }),
    revokeToken: mutation<{ customerId: string; tokenId: string }>(
      async ({ customerId, tokenId }, ctx, s) => {
        await s.tokens.revoke(ctx, customerId, tokenId);
        return true;
      },
    ),
    rotateToken: mutation<{ customerId: string; tokenId: string }>(
      async ({ customerId, tokenId }, ctx, s) =>
        issuedOf(await s.tokens.rotate(ctx, customerId, tokenId), s.deps.config.baseUrl),
    ),
    regenerateToken: mutation<{ customerId: string }>(async ({ customerId }, ctx, s) =>
      issuedOf(await s.tokens.regenerate(ctx, customerId), s.deps.config.baseUrl),
    ),
    revokeAllTokens: mutation<{ customerId: string }>(async ({ customerId }, ctx, s) => {
      await s.tokens.revokeAll(ctx, customerId);
      return true;
    }),
  },
};
