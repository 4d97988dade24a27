import type { GraphqlPart } from '../../graphql/kit.js';
import { camelKeys, query } from '../../graphql/kit.js';
import { assertFeature } from '../../editions.js';

/** GraphQL of the proxy area: the ProxyStatus type and the proxyStatus query. */
export const proxyGraphql: GraphqlPart = {
  typeDefs: /* GraphQL */ `
    type ProxyStatus {
      enabled: Boolean!
      upstreamUrl: String
      upstreamReachable: Boolean!
      cachedPackages: Int!
      cachedArchives: Int!
      cachedBytes: Float!
      frozenPackages: Int!
      "The upstream URL as a list (empty when the proxy is off); prefer upstreamUrl."
      upstreams: [String!]!
    }

    extend type Query {
      proxyStatus: ProxyStatus!
    }
  `,

  Query: {
    // The REST status under GraphQL's names (docs/proxy.md); `upstreams` stays for clients of
    // the earlier shape.
    proxyStatus: query(async (_args, ctx, s) => {
      assertFeature(s.deps.config.edition, 'proxy');
      const status = await s.proxyAdmin.status(ctx);
      return {
        ...camelKeys(status),
        upstreams: status.upstream_url ? [status.upstream_url] : [],
      };
    }),
  },
};
