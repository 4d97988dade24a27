import type { Deps } from '../../context.js';
import { AppError } from '../../errors.js';
import { archiveLimitsOf } from './limits.js';
import { storedStorageUsed } from './storage-counter.js';

/** New archives would pass the storage limit; the message is what a failed sync records. */
export class StorageLimitError extends AppError {
  constructor(
    readonly used: number,
    readonly limit: number,
    readonly extraBytes: number,
  ) {
    super(
      'CONFLICT',
      extraBytes > 0 && used < limit
        ? `Storage limit reached: ${used} of ${limit} bytes used, ${extraBytes} more bytes would not fit`
        : `Storage limit reached: ${used} of ${limit} bytes used`,
    );
  }
}

/** Bytes of the tenant's stored archives, each distinct archive counted once (the counter). */
export async function storageUsed(deps: Pick<Deps, 'db'>, tenantId: string): Promise<number> {
  return storedStorageUsed(deps.db, tenantId);
}

/**
 * Call before writing new archives (sync, artifact upload): throws StorageLimitError when a
 * non-zero storage limit (the Cloud plan's, else STORAGE_LIMIT_BYTES) is already reached, or
 * would be passed by `extraBytes` more. Downloads never call this: past the storage limit
 * archives stay downloadable.
 */
export async function assertStorageLeft(
  deps: Pick<Deps, 'db' | 'config'>,
  tenantId: string,
  extraBytes = 0,
): Promise<void> {
  const limit = (await archiveLimitsOf(deps, deps.db, tenantId)).storage;
  if (limit <= 0) return;
  const used = await storageUsed(deps, tenantId);
  if (used >= limit || used + extraBytes > limit) {
    throw new StorageLimitError(used, limit, extraBytes);
  }
}
