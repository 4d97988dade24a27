/** Where archives live: the filesystem now, S3 later, behind this one narrow interface. */
export interface ArchiveStorage {
  put(key: string, data: Buffer): Promise<void>;
  /** The bytes, or null when nothing is stored under the key. */
  get(key: string): Promise<Buffer | null>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Every stored key under a prefix (`tenant/`), with when it was last written. */
  list(prefix: string): AsyncIterable<StoredObject>;
  /** Throws when the storage cannot be reached (readiness checks). */
  check(): Promise<void>;
}

export interface StoredObject {
  key: string;
  modifiedAt: Date;
}
