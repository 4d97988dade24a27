import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { AppError } from '../../errors.js';

/**
 * An uploaded zip as it arrived: written to a temporary file while it streamed in, so an upload
 * of ARTIFACT_MAX_BYTES never sits in memory. The request that received it removes it.
 */
export interface ReceivedZip {
  readonly path: string;
  readonly size: number;
  readonly sha1: string;
}

export function isReceivedZip(value: unknown): value is ReceivedZip {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ReceivedZip).path === 'string' &&
    typeof (value as ReceivedZip).sha1 === 'string'
  );
}

export function tooLarge(size: string | number, maxBytes: number): AppError {
  return new AppError(
    'PAYLOAD_TOO_LARGE',
    `The artifact is ${size} bytes; the limit is ${maxBytes} bytes (ARTIFACT_MAX_BYTES)`,
  );
}

/**
 * Streams `body` into a new temporary file, hashing it on the way. More than `maxBytes` stops the
 * copy with 413 PAYLOAD_TOO_LARGE and removes what was written; the rest of the body is left to
 * the HTTP server to discard, so the client still reads the 413 rather than a reset connection.
 */
export async function receiveZip(body: Readable, maxBytes: number): Promise<ReceivedZip> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'packyard-upload-'));
  const file = path.join(dir, 'upload.zip');
  const out = fs.createWriteStream(file);
  const hash = crypto.createHash('sha1');
  let size = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const stop = (err: Error) => {
        body.off('data', onData);
        body.off('end', onEnd);
        out.destroy();
        reject(err);
      };
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) return stop(tooLarge(`more than ${maxBytes}`, maxBytes));
        hash.update(chunk);
        if (!out.write(chunk)) {
          body.pause();
          out.once('drain', () => body.resume());
        }
      };
      const onEnd = () => out.end(() => resolve());
      body.on('data', onData);
      body.once('end', onEnd);
      body.once('error', stop);
      out.once('error', stop);
    });
  } catch (err) {
    await discardZip({ path: file });
    throw err;
  }
  return { path: file, size, sha1: hash.digest('hex') };
}

/** Removes the temporary file and its folder; never throws (a leftover is only disk space). */
export async function discardZip(zip: Pick<ReceivedZip, 'path'>): Promise<void> {
  await fs.promises.rm(path.dirname(zip.path), { recursive: true, force: true });
}
