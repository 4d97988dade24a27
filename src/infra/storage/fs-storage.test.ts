import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FsStorage } from './fs-storage.js';

describe('FsStorage streams', () => {
  let root: string;
  let storage: FsStorage;
  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'packyard-fs-'));
    storage = new FsStorage(root);
  });
  afterEach(async () => fs.rm(root, { recursive: true, force: true }));

  it('writes a stream and reads it back with its size and SHA-1', async () => {
    const chunks = ['hello ', 'streamed ', 'world'];
    const written = await storage.putStream(
      't/a.zip',
      Readable.from(chunks.map((c) => Buffer.from(c))),
    );
    const whole = chunks.join('');
    expect(written).toEqual({
      size: whole.length,
      sha1: crypto.createHash('sha1').update(whole).digest('hex'),
    });
    const read = await storage.getStream('t/a.zip');
    expect(read?.size).toBe(whole.length);
    expect(await text(read!.body)).toBe(whole);
  });

  it('leaves nothing under the key when the stream fails', async () => {
    const failing = new Readable({
      read() {
        this.push(Buffer.from('partial'));
        this.destroy(new Error('source broke'));
      },
    });
    await expect(storage.putStream('t/b.zip', failing)).rejects.toThrow('source broke');
    expect(await storage.exists('t/b.zip')).toBe(false);
    expect(await storage.getStream('t/b.zip')).toBeNull();
    const left = await fs.readdir(path.join(root, 't'));
    expect(left).toEqual([]);
  });

  it('reads a byte range of a file, and refuses one past its end', async () => {
    await storage.put('t/p/pack.zip1pack', Buffer.from('alphabetagamma'));
    const read = await storage.getStream('t/p/pack.zip1pack', { offset: 5, length: 4 });
    expect(read?.size).toBe(4);
    expect(await text(read!.body)).toBe('beta');
    const last = await storage.getStream('t/p/pack.zip1pack', { offset: 9, length: 5 });
    expect(await text(last!.body)).toBe('gamma');
    expect(await storage.getStream('t/p/missing.zip1pack', { offset: 0, length: 1 })).toBeNull();
    await expect(storage.getStream('t/p/pack.zip1pack', { offset: 10, length: 5 })).rejects.toThrow(
      'past the end',
    );
  });
});
