import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageSettings } from '../../config/index.js';
import type { S3Settings } from '../../config/storage.js';
import { AppError } from '../../errors.js';
import { startFakeS3 } from '../../../test/fakes/s3.js';
import type { FakeS3 } from '../../../test/fakes/s3.js';
import { S3Storage } from './s3-storage.js';

function settingsFor(s3: FakeS3, prefix: string): S3Settings {
  const env = s3.env(prefix);
  const parsed = storageSettings(env.STORAGE_URL, '/unused', env);
  if (parsed.kind !== 's3') throw new Error('expected s3 settings');
  return parsed;
}

/** A stream of `size` pseudo-random bytes in 64 KiB chunks, never held whole. */
function generated(size: number, seed: string): Readable {
  let sent = 0;
  let block = crypto.createHash('sha256').update(seed).digest();
  return new Readable({
    read() {
      if (sent >= size) return void this.push(null);
      const n = Math.min(64 * 1024, size - sent);
      const chunk = Buffer.alloc(n);
      for (let i = 0; i < n; i += 32) {
        block = crypto.createHash('sha256').update(block).digest();
        block.copy(chunk, i);
      }
      sent += n;
      this.push(chunk);
    },
  });
}

async function sha1Of(body: Readable): Promise<string> {
  const hash = crypto.createHash('sha1');
  for await (const chunk of body) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

describe('S3Storage on a real S3-compatible server', () => {
  let s3: FakeS3;
  let storage: S3Storage;
  beforeAll(async () => {
    s3 = await startFakeS3();
    storage = new S3Storage(settingsFor(s3, `run-${crypto.randomBytes(4).toString('hex')}`));
  });
  afterAll(async () => {
    storage.close();
    await s3.close();
  });

  it('stores, reads, streams, lists and deletes objects under its prefix', async () => {
    await storage.put('t1/p/a.zip', Buffer.from('alpha'));
    const written = await storage.putStream('t1/p/b.zip', Readable.from([Buffer.from('beta')]));
    expect(written).toEqual({
      size: 4,
      sha1: crypto.createHash('sha1').update('beta').digest('hex'),
    });
    await storage.put('t1/q/c.zip', Buffer.from('gamma'));
    await storage.put('t2/p/d.zip', Buffer.from('delta'));

    expect((await storage.get('t1/p/a.zip'))?.toString()).toBe('alpha');
    const read = await storage.getStream('t1/p/b.zip');
    expect(read?.size).toBe(4);
    expect(await text(read!.body)).toBe('beta');
    expect(await storage.get('t1/missing.zip')).toBeNull();
    expect(await storage.getStream('t1/missing.zip')).toBeNull();
    expect(await storage.exists('t1/p/a.zip')).toBe(true);
    expect(await storage.exists('t1/missing.zip')).toBe(false);

    // (s3rver on Node 20 fails any listing longer than one page, so paging is not tested here.)
    const listed: string[] = [];
    for await (const object of storage.list('t1/')) listed.push(object.key);
    expect(listed.sort()).toEqual(['t1/p/a.zip', 't1/p/b.zip', 't1/q/c.zip']);

    await storage.delete('t1/p/a.zip');
    expect(await storage.exists('t1/p/a.zip')).toBe(false);
    await storage.check();
  });

  it('reads a byte range of an object, and refuses one past its end', async () => {
    await storage.put('t3/p/pack.zip1pack', Buffer.from('alphabetagamma'));
    const read = await storage.getStream('t3/p/pack.zip1pack', { offset: 5, length: 4 });
    expect(read?.size).toBe(4);
    expect(await text(read!.body)).toBe('beta');
    expect(await storage.getStream('t3/p/missing.zip1pack', { offset: 0, length: 1 })).toBeNull();
    await expect(
      storage.getStream('t3/p/pack.zip1pack', { offset: 10, length: 5 }),
    ).rejects.toThrow();
  });

  it('uploads a stream larger than one part as a multipart upload, byte for byte', async () => {
    const size = 9 * 1024 * 1024 + 123;
    const expected = await sha1Of(generated(size, 'big'));
    const written = await storage.putStream('big/archive.zip', generated(size, 'big'));
    expect(written).toEqual({ size, sha1: expected });
    const read = await storage.getStream('big/archive.zip');
    expect(read?.size).toBe(size);
    expect(await sha1Of(read!.body)).toBe(expected);
  });

  it('leaves nothing under the key when the source stream fails', async () => {
    const failing = new Readable({
      read() {
        this.push(Buffer.from('partial'));
        this.destroy(new Error('source broke'));
      },
    });
    await expect(storage.putStream('broken/b.zip', failing)).rejects.toThrow('source broke');
    expect(await storage.exists('broken/b.zip')).toBe(false);
  });

  it('answers SERVICE_UNAVAILABLE while the server is down and works again once it is back', async () => {
    await storage.put('outage/a.zip', Buffer.from('kept'));
    await s3.stop();
    try {
      const down = await storage.getStream('outage/a.zip').catch((err: unknown) => err);
      expect(down).toBeInstanceOf(AppError);
      expect((down as AppError).code).toBe('SERVICE_UNAVAILABLE');
      await expect(storage.check()).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      await expect(storage.put('outage/b.zip', Buffer.from('x'))).rejects.toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
      });
    } finally {
      await s3.start();
    }
    expect((await storage.get('outage/a.zip'))?.toString()).toBe('kept');
  });
});
