import type { Config } from '../../config/index.js';
import { maskedUpstreamUrl } from '../../config/proxy.js';
import { hasFeature } from '../../editions.js';

/**
 * What the start banner says about the proxy (docs/proxy.md), when the edition has it and
 * PROXY_UPSTREAM_URL leaves it on (the default): that it is on, that it makes outbound requests
 * for whatever names customers ask for, and how to turn it off. Nothing otherwise.
 */
export function proxyBannerLines(config: Pick<Config, 'edition' | 'proxy'>): string[] {
  const upstream = maskedUpstreamUrl(config.proxy);
  if (upstream === null || !hasFeature(config.edition, 'proxy')) return [];
  return [
    'Proxy on: package names a customer asks for that this registry does not have are fetched',
    `  from ${upstream} (outbound requests; 502 while it cannot be reached).`,
    '  To turn it off: PROXY_UPSTREAM_URL=off',
  ];
}
