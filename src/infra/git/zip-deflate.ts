import zlib from 'node:zlib';

/**
 * Raw deflate of many small buffers through ONE zlib stream, reset between buffers.
 *
 * `zlib.deflateRawSync` sets up (and frees) a new zlib stream per call: for the blobs of a
 * release (a few hundred bytes each) that setup costs about three times the compression itself.
 * Here one stream is kept and `deflateReset` between buffers makes it start afresh, which zlib
 * guarantees gives the same bytes as a new stream with the same settings, so the zips do not
 * change. The sync write is what `zlib.deflateRawSync` itself calls (Node's `ZlibBase` handle:
 * `reset`, `writeSync` and its `_writeState`), not part of Node's documented API: the first use
 * compares the result with `zlib.deflateRawSync`, and any mismatch, missing method or error
 * makes every later call use `zlib.deflateRawSync` instead.
 */

interface SyncHandle {
  reset(): void;
  writeSync(
    flush: number,
    input: Uint8Array,
    inOffset: number,
    inLength: number,
    output: Uint8Array,
    outOffset: number,
    outLength: number,
  ): void;
}

interface Engine {
  handle: SyncHandle;
  state: Uint32Array;
  failed: boolean;
}

/** Output bytes beyond the input's size that one write is given: deflate's worst case fits. */
const SLACK = 64;

const engines = new Map<number, Engine | null>();

function open(level: number): Engine | null {
  try {
    const stream = zlib.createDeflateRaw({ level }) as unknown as {
      _handle?: Partial<SyncHandle>;
      _writeState?: unknown;
      on(event: 'error', listener: () => void): unknown;
    };
    const handle = stream._handle;
    const state = stream._writeState;
    if (
      typeof handle?.reset !== 'function' ||
      typeof handle.writeSync !== 'function' ||
      !(state instanceof Uint32Array) ||
      state.length < 2
    ) {
      return null;
    }
    const engine: Engine = { handle: handle as SyncHandle, state, failed: false };
    // zlib reports an error through the stream; from then on this engine is not used.
    stream.on('error', () => (engine.failed = true));
    return engine;
  } catch {
    return null;
  }
}

function deflateWith(engine: Engine, input: Buffer): Buffer {
  const { handle, state } = engine;
  handle.reset();
  const parts: Buffer[] = [];
  let inOffset = 0;
  let inLeft = input.length;
  for (;;) {
    const out = Buffer.allocUnsafe(input.length + SLACK);
    handle.writeSync(zlib.constants.Z_FINISH, input, inOffset, inLeft, out, 0, out.length);
    const outLeft = state[0]!;
    const inLeftAfter = state[1]!;
    parts.push(out.subarray(0, out.length - outLeft));
    inOffset += inLeft - inLeftAfter;
    inLeft = inLeftAfter;
    // A full output buffer means zlib may have more to write.
    if (outLeft !== 0) break;
  }
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

/** A probe whose deflate holds literals and matches. */
const PROBE = Buffer.from(
  Array.from({ length: 64 }, (_, i) => `line ${i * 7919} of the probe ${'ab'.repeat(i % 9)}\n`)
    .join('')
    .repeat(3),
  'latin1',
);

function engineFor(level: number): Engine | null {
  let engine = engines.get(level);
  if (engine !== undefined) return engine;
  engine = open(level);
  try {
    const expected = zlib.deflateRawSync(PROBE, { level });
    if (engine && (!deflateWith(engine, PROBE).equals(expected) || engine.failed)) engine = null;
  } catch {
    engine = null;
  }
  engines.set(level, engine);
  return engine;
}

/** The same bytes as `zlib.deflateRawSync(input, { level })`. */
export function deflateRawReused(input: Buffer, level: number): Buffer {
  const engine = engineFor(level);
  if (engine && !engine.failed) {
    try {
      const out = deflateWith(engine, input);
      if (!engine.failed) return out;
    } catch {
      engine.failed = true;
    }
  }
  return zlib.deflateRawSync(input, { level });
}

/** Whether deflateRawReused runs on its one reused stream at `level` (not the fallback). */
export function reusesStream(level: number): boolean {
  const engine = engineFor(level);
  return engine !== null && !engine.failed;
}
