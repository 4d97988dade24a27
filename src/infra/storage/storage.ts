import type { Readable } from 'node:stream';

/** Where archives live: the filesystem or S3, behind this one narrow interface. */
export interface ArchiveStorage {
  put(key: string, data: Buffer): Promise<void>;
  /**
   * Writes a stream without holding it whole in memory; the object appears only once complete
   * (a failed or aborted stream leaves nothing under the key). Answers its size and SHA-1.
   */
  putStream(key: string, body: Readable): Promise<StoredWrite>;
  /** The bytes, or null when nothing is stored under the key. */
  get(key: string): Promise<Buffer | null>;
  /**
   * The object as a stream with its size, or null when nothing is stored under the key. With
   * `range`, only those bytes (an archive inside a pack: docs/composer.md, "Archive packs").
   */
  getStream(key: string, range?: ByteRange): Promise<StoredRead | null>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Every stored key under a prefix (`tenant/`), with when it was last written. */
  list(prefix: string): AsyncIterable<StoredObject>;
  /** Throws when the storage cannot be reached (readiness checks). */
  check(): Promise<void>;
  /** Releases connections; the storage is not used after. */
  close(): void;
}

export interface StoredObject {
  key: string;
  modifiedAt: Date;
}

export interface StoredWrite {
  size: number;
  /** Hex SHA-1 of the bytes written. */
  sha1: string;
}

/** `length` (at least 1) bytes from `offset` of one stored object. */
export interface ByteRange {
  offset: number;
  length: number;
}

export interface StoredRead {
  body: Readable;
  size: number;
}

/** Keys are relative paths of safe characters: no `..`, no empty segments (both backends). */
export function assertValidKey(key: string): void {
  if (!/^[A-Za-z0-9._\-/]+$/.test(key) || key.split('/').some((p) => p === '..' || p === '')) {
    throw new Error(`Invalid storage key: ${key}`);
  }
}
