import crypto from 'node:crypto';
import { Transform, pipeline } from 'node:stream';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Settings } from '../../config/storage.js';
import { serviceUnavailable } from '../../errors.js';
import { assertValidKey } from './storage.js';
import type {
  ArchiveStorage,
  ByteRange,
  StoredObject,
  StoredRead,
  StoredWrite,
} from './storage.js';

/** Streams larger than this go up as a multipart upload, in parts of this size. */
const PART_BYTES = 8 * 1024 * 1024;
/** Keys per listing page; pages continue with StartAfter, which every S3-compatible server knows. */
const PAGE = 1000;

interface SdkError {
  name?: string;
  $metadata?: { httpStatusCode?: number };
}

function isMissing(err: unknown): boolean {
  const e = err as SdkError;
  if (e.name === 'NoSuchBucket') return false;
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

/**
 * Whatever stops us reaching the bucket (refused connection, timeout, 5xx, refused credentials,
 * missing bucket) answers 503 SERVICE_UNAVAILABLE; the SDK's error stays as the cause for the log.
 */
function unavailable(err: unknown): Error {
  const mapped = serviceUnavailable('Archive storage cannot be reached; try again shortly');
  mapped.cause = err;
  return mapped;
}

/**
 * Archives in an S3-compatible bucket (AWS, MinIO, Ceph, R2), under an optional key prefix, so
 * every node of an installation serves the same objects. Objects are only visible once complete.
 */
export class S3Storage implements ArchiveStorage {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly root: string;

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.root = settings.prefix ? `${settings.prefix}/` : '';
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint ?? undefined,
      forcePathStyle: settings.forcePathStyle,
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
      // Checksums only where S3 requires them: older S3-compatible servers reject the newer headers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // Fail fast while storage is down (503 to the caller) instead of holding requests open.
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 3000, requestTimeout: 60_000 },
    });
  }

  private objectKey(key: string): string {
    assertValidKey(key);
    return this.root + key;
  }

  private async call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      throw unavailable(err);
    }
  }

  async put(key: string, data: Buffer): Promise<void> {
    const Key = this.objectKey(key);
    await this.call(() =>
      this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key, Body: data })),
    );
  }

  async putStream(key: string, body: Readable): Promise<StoredWrite> {
    const Key = this.objectKey(key);
    const hash = crypto.createHash('sha1');
    let size = 0;
    const measure = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    // A failing source destroys `measure`, which fails (and aborts) the upload.
    const counted = pipeline(body, measure, () => undefined);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key, Body: counted },
      partSize: PART_BYTES,
      queueSize: 2,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      body.destroy();
      if (measure.errored) throw measure.errored;
      throw unavailable(err);
    }
    return { size, sha1: hash.digest('hex') };
  }

  async getStream(key: string, range?: ByteRange): Promise<StoredRead | null> {
    const Key = this.objectKey(key);
    const Range = range ? `bytes=${range.offset}-${range.offset + range.length - 1}` : undefined;
    let read: StoredRead;
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key, Range }));
      read = { body: res.Body as Readable, size: res.ContentLength ?? 0 };
    } catch (err) {
      if (isMissing(err)) return null;
      throw unavailable(err);
    }
    if (range && read.size !== range.length) {
      read.body.destroy();
      throw new Error(`Bytes ${range.offset}+${range.length} are past the end of ${key}`);
    }
    return read;
  }

  async get(key: string): Promise<Buffer | null> {
    const found = await this.getStream(key);
    if (!found) return null;
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of found.body) chunks.push(chunk as Buffer);
    } catch (err) {
      throw unavailable(err);
    }
    return Buffer.concat(chunks);
  }

  async exists(key: string): Promise<boolean> {
    const Key = this.objectKey(key);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key }));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw unavailable(err);
    }
  }

  async delete(key: string): Promise<void> {
    const Key = this.objectKey(key);
    await this.call(() => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key })));
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    const Prefix = this.root + prefix;
    let startAfter: string | undefined;
    for (;;) {
      const page = await this.call(() =>
        this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix,
            StartAfter: startAfter,
            MaxKeys: PAGE,
          }),
        ),
      );
      const contents = page.Contents ?? [];
      for (const object of contents) {
        if (!object.Key) continue;
        yield {
          key: object.Key.slice(this.root.length),
          modifiedAt: object.LastModified ?? new Date(0),
        };
      }
      if (!page.IsTruncated || contents.length === 0) return;
      startAfter = contents.at(-1)?.Key;
    }
  }

  async check(): Promise<void> {
    await this.call(() => this.client.send(new HeadBucketCommand({ Bucket: this.bucket })));
  }

  /** Closes the SDK's kept-alive connections. */
  close(): void {
    this.client.destroy();
  }
}
