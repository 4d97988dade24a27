import type { Deps } from '../../context.js';
import type { UsageService } from '../usage/service.js';
import * as store from './store.js';
import { announceDownload } from '../composer-repository/downloads.js';

/**
 * A proxied archive about to be sent: its bytes against the tenant's bandwidth, the proxy's
 * download statistics and byte counter, all committed before the archive goes out (as `/dist`),
 * then the customer's DOWNLOAD activity for subscribers, as `/dist` announces it.
 */
export async function recordProxyDownload(
  deps: Pick<Deps, 'db' | 'events'>,
  usage: UsageService,
  d: {
    tenantId: string;
    customerId: string;
    name: string;
    version: string;
    normalized: string;
    size: number;
  },
): Promise<void> {
  await usage.recordBandwidth(d.tenantId, d.size);
  await store.recordDownload(deps.db, d.tenantId, d.customerId, d.name, d.normalized, d.size);
  await store.count(deps.db, d.tenantId, 'bytes_served', d.size);
  announceDownload(deps, d);
}
