import type { StorageSettings } from '../../config/storage.js';
import { FsStorage } from './fs-storage.js';
import { S3Storage } from './s3-storage.js';
import type { ArchiveStorage } from './storage.js';

/** The archive storage the settings name: a folder, or an S3-compatible bucket. */
export function openStorage(settings: StorageSettings): ArchiveStorage {
  return settings.kind === 's3' ? new S3Storage(settings) : new FsStorage(settings.root);
}

/** Where archives live, for banners and logs (never credentials). */
export function describeStorage(settings: StorageSettings): string {
  if (settings.kind === 'fs') return settings.root;
  const where = settings.endpoint ? ` at ${settings.endpoint}` : '';
  return `s3://${settings.bucket}/${settings.prefix}${where}`;
}
