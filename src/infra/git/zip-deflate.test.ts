import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { deflateRawReused, reusesStream } from './zip-deflate.js';

describe('deflateRawReused', () => {
  it('gives the bytes of zlib.deflateRawSync, buffer after buffer', () => {
    const inputs = [
      Buffer.from('{\n  "name": "acme/lib"\n}\n'),
      Buffer.from('x'),
      Buffer.from('<?php\n'.repeat(500)),
      // Incompressible and larger than one output buffer of the reused stream.
      crypto.randomBytes(200_000),
      Buffer.from('a small one after a large one'),
      Buffer.alloc(70_000, 7),
    ];
    for (const level of [6, 1, 9]) {
      for (const input of inputs) {
        const ours = deflateRawReused(input, level);
        expect(ours.equals(zlib.deflateRawSync(input, { level }))).toBe(true);
        expect(zlib.inflateRawSync(ours).equals(input)).toBe(true);
      }
      // On this Node the reused stream is what ran, not the fallback.
      expect(reusesStream(level)).toBe(true);
    }
  });
});
