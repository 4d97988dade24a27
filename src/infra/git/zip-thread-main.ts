import { parentPort } from 'node:worker_threads';
import { assemble } from './zip-pieces.js';
import { makePiece, writeZip } from './zip-writer.js';
import type { ZipPiece } from './zip-writer.js';
import type { ToZipThread, FromZipThread, ZipOutcome } from './zip-thread.js';

/**
 * The zip thread (zip-thread.ts): makes the pieces of the blobs it is sent (CRC-32 and deflate)
 * and keeps them until told to drop them, and writes each job's zip from them. The same functions
 * as buildZips in the server's thread, so the same bytes.
 */
/** Each session's pieces (one buildZips call of the server), until it is released. */
const sessions = new Map<number, Map<string, ZipPiece | null>>();
const port = parentPort!;

const asBuffer = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

port.on('message', (message: ToZipThread) => {
  if ('release' in message) {
    sessions.delete(message.release);
    return;
  }
  let pieces = sessions.get(message.session);
  if (!pieces) {
    pieces = new Map<string, ZipPiece | null>();
    sessions.set(message.session, pieces);
  }
  try {
    for (const key of message.drop) pieces.delete(key);
    for (const blob of message.blobs) {
      pieces.set(blob.key, blob.content ? makePiece(asBuffer(blob.content), blob.symlink) : null);
    }
    const outcomes: ZipOutcome[] = message.jobs.map((job) => {
      const entries = assemble(job.drafts, pieces);
      return typeof entries === 'string'
        ? { reason: entries }
        : { zip: writeZip(entries, job.time, job.commit) };
    });
    port.postMessage({ t: 'zips', id: message.id, outcomes } satisfies FromZipThread);
  } catch (err) {
    const text = err instanceof Error ? err.message : String(err);
    port.postMessage({ t: 'failed', id: message.id, message: text } satisfies FromZipThread);
  }
});
port.postMessage({ t: 'ready' } satisfies FromZipThread);
