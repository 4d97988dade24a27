import type { Ctx } from '../../context.js';
import { assertFeature } from '../../editions.js';
import type { Services } from '../../services.js';
import { presentStatusGraphql } from './presenter.js';

/** GraphQL of the proxy area: the ProxyStatus type and the proxyStatus query. */
export const proxyTypeDefs = /* GraphQL */ `
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
`;

export const proxyQueries = {
  proxyStatus: async (ctx: Ctx, s: Services) => {
    assertFeature(s.deps.config.edition, 'proxy');
    return presentStatusGraphql(await s.proxyAdmin.status(ctx));
  },
};
