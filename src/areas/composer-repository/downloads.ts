import type { Deps } from '../../context.js';
import type { UsageService } from '../usage/service.js';

export interface ArchiveDownload {
  tenantId: string;
  customerId: string;
  packageId: string;
  name: string;
  version: string;
  normalized: string;
  size: number;
}

/**
 * A synced or uploaded archive about to be sent: counted first (committed by the usage meter's
 * group commit, so a served archive is never missing from the statistics), then announced to
 * subscribers as the customer's DOWNLOAD activity.
 */
export async function recordArchiveDownload(
  deps: Pick<Deps, 'events'>,
  usage: UsageService,
  d: ArchiveDownload,
): Promise<void> {
  await usage.recordDownload(d.tenantId, d.customerId, d.packageId, d.normalized, d.size);
  announceDownload(deps, d);
}

/** The customer's DOWNLOAD activity, for subscribers, once the download has been counted. */
export function announceDownload(
  deps: Pick<Deps, 'events'>,
  d: { tenantId: string; customerId: string; name: string; version: string },
): void {
  deps.events.publish({
    type: 'customer.activity',
    tenantId: d.tenantId,
    customerId: d.customerId,
    activity: 'DOWNLOAD',
    package: d.name,
    version: d.version,
    at: new Date().toISOString(),
  });
}
