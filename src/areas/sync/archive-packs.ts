import crypto from 'node:crypto';
import type { ArchiveStorage } from '../../infra/storage/storage.js';
import type { ArchiveJob, BuiltArchive } from './types.js';

/**
 * Archive packs (docs/composer.md, "Archive packs"): the zips one sync builds for a package are
 * stored end to end in one object, each version pointing at its bytes (key, offset, size), so a
 * sync of 1,000 tags writes one file (or one S3 object), not 1,000. A pack is written once and
 * never changed; it is deleted when no version points into it any more (the cleanup task's
 * orphan sweep, which already keeps every key a version names).
 */

/** A pack is closed and stored once it holds this many bytes; the next zips start another. */
export const PACK_BYTES = 64 * 1024 * 1024;

/** Where a package's packs live; every key under it is a pack. */
export const packPrefix = (tenantId: string, packageId: string): string =>
  `${tenantId}/${packageId}/packs/`;

/** Whether `key` is a pack of this package (a version's archive is then a slice of it). */
export function isPackOf(key: string, job: Pick<ArchiveJob, 'tenantId' | 'packageId'>): boolean {
  return key.startsWith(packPrefix(job.tenantId, job.packageId));
}

interface Pack {
  key: string;
  parts: Buffer[];
  bytes: number;
  members: { job: ArchiveJob; offset: number; size: number; shasum: string }[];
}

/** Collects zips per package into packs and stores each pack whole. */
export class ArchivePacks {
  private readonly open = new Map<string, Pack>();

  constructor(
    private readonly storage: ArchiveStorage,
    /** Told each archive once the pack holding it is stored. */
    private readonly stored: (job: ArchiveJob, archive: BuiltArchive) => void,
    private readonly maxBytes = PACK_BYTES,
  ) {}

  /** Adds one job's zip; stores the package's pack when it is full. */
  async add(job: ArchiveJob, zip: Buffer, shasum: string): Promise<void> {
    const id = `${job.tenantId}/${job.packageId}`;
    let pack = this.open.get(id);
    if (!pack) {
      const name = `${Date.now().toString(36)}-${crypto.randomBytes(8).toString('hex')}`;
      pack = {
        key: `${packPrefix(job.tenantId, job.packageId)}${name}.zip1pack`,
        parts: [],
        bytes: 0,
        members: [],
      };
      this.open.set(id, pack);
    }
    pack.members.push({ job, offset: pack.bytes, size: zip.length, shasum });
    pack.parts.push(zip);
    pack.bytes += zip.length;
    if (pack.bytes >= this.maxBytes) {
      this.open.delete(id);
      await this.store(pack);
    }
  }

  /** Stores every pack still open. */
  async flush(): Promise<void> {
    const packs = [...this.open.values()];
    this.open.clear();
    await Promise.all(packs.map((p) => this.store(p)));
  }

  private async store(pack: Pack): Promise<void> {
    await this.storage.put(pack.key, Buffer.concat(pack.parts, pack.bytes));
    for (const m of pack.members) {
      this.stored(m.job, { key: pack.key, offset: m.offset, size: m.size, shasum: m.shasum });
    }
  }
}
