import type { FastifyReply } from 'fastify';
import type { UsageService } from './service.js';

/**
 * The metering every archive answer (`/dist` and `/dist-proxy`) starts with: the tenant's
 * X-Bandwidth-* and X-Storage-* figures as headers, and 429 once the bandwidth is used up.
 */
export async function meterArchive(
  usage: UsageService,
  tenantId: string,
  reply: FastifyReply,
): Promise<void> {
  const figures = await usage.figures(tenantId);
  reply
    .header('x-bandwidth-used', String(figures.bandwidthUsed))
    .header('x-bandwidth-limit', String(figures.bandwidthLimit))
    .header('x-storage-used', String(figures.storageUsed))
    .header('x-storage-limit', String(figures.storageLimit));
  usage.assertBandwidthLeft(figures);
}
