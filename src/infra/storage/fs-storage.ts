import fs from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { Transform } from 'node:stream';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertValidKey } from './storage.js';
import type {
  ArchiveStorage,
  ByteRange,
  StoredObject,
  StoredRead,
  StoredWrite,
} from './storage.js';

/** Archives as files under one root folder; writes go to a temp file and are renamed in place. */
export class FsStorage implements ArchiveStorage {
  constructor(private readonly root: string) {}

  private file(key: string): string {
    assertValidKey(key);
    return path.join(this.root, key);
  }

  async put(key: string, data: Buffer): Promise<void> {
    const target = this.file(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    const tmp = `${target}.${crypto.randomBytes(6).toString('hex')}.tmp`;
    await fs.writeFile(tmp, data);
    await fs.rename(tmp, target);
  }

  async putStream(key: string, body: Readable): Promise<StoredWrite> {
    const target = this.file(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    const tmp = `${target}.${crypto.randomBytes(6).toString('hex')}.tmp`;
    const hash = crypto.createHash('sha1');
    let size = 0;
    const measure = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(body, measure, createWriteStream(tmp));
      await fs.rename(tmp, target);
    } catch (err) {
      await fs.rm(tmp, { force: true });
      throw err;
    }
    return { size, sha1: hash.digest('hex') };
  }

  async getStream(key: string, range?: ByteRange): Promise<StoredRead | null> {
    const file = this.file(key);
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(file, 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    const { size } = await handle.stat();
    if (!range) return { body: handle.createReadStream(), size };
    if (range.offset + range.length > size) {
      await handle.close();
      throw new Error(`Bytes ${range.offset}+${range.length} are past the end of ${key}`);
    }
    // `end` is inclusive; a range is never empty (a zip has 22 bytes at least).
    const end = range.offset + range.length - 1;
    return { body: handle.createReadStream({ start: range.offset, end }), size: range.length };
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await fs.readFile(this.file(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await fs.access(this.file(key));
      return true;
    } catch {
      return false;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.file(key), { force: true });
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    const dir = prefix.replace(/\/+$/, '');
    const base = dir === '' ? this.root : this.file(dir);
    let entries: string[];
    try {
      entries = await fs.readdir(base, { recursive: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for (const entry of entries) {
      // Half-written files (put's temp names) are not objects yet.
      if (entry.endsWith('.tmp')) continue;
      const stat = await fs.stat(path.join(base, entry));
      if (!stat.isFile()) continue;
      yield {
        key: path.posix.join(dir, entry.split(path.sep).join('/')),
        modifiedAt: stat.mtime,
      };
    }
  }

  async check(): Promise<void> {
    await fs.mkdir(this.root, { recursive: true });
    await fs.access(this.root, fs.constants.W_OK);
  }

  close(): void {
    // Nothing held open between calls.
  }
}
