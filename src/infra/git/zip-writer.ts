import zlib from 'node:zlib';
import { deflateRawReused } from './zip-deflate.js';

/**
 * A zip written the way `git archive --format=zip` (git 2.39, archive-zip.c) writes one: the same
 * entries in the same order, headers, extra fields, attributes, timestamps and trailer comment.
 * Only the deflate streams come from Node's zlib instead of git's, so the bytes may differ from
 * git's zip where the two zlib builds compress differently; what unpacks is the same.
 */

/** Deflate level: git archive's default (Z_DEFAULT_COMPRESSION, which zlib runs as 6). */
export const DEFLATE_LEVEL = 6;

/** A blob made ready for any number of zips: compressed (or stored) once, with its CRC-32. */
export interface ZipPiece {
  crc: number;
  size: number;
  /** 8 = deflate, 0 = stored (symlinks, empty files, and blobs deflate would not shrink). */
  method: 0 | 8;
  data: Buffer;
  /** A NUL byte in the first 8,000 bytes: git's guess that the blob is binary. */
  nul: boolean;
}

export type ZipEntry =
  | { kind: 'dir'; path: string }
  | {
      kind: 'file' | 'exec' | 'symlink';
      path: string;
      piece: ZipPiece;
      /** The `diff` attribute: false (`-diff`, `binary`) says binary, true says text. */
      diff?: boolean;
    };

const BINARY_PROBE = 8000;

/** CRC-32, size and the deflated (or stored) bytes of one blob. */
export function makePiece(content: Buffer, symlink: boolean, deflated?: Buffer): ZipPiece {
  const nul = content.subarray(0, BINARY_PROBE).includes(0);
  const crc = zlib.crc32(content);
  if (symlink || content.length === 0) {
    return { crc, size: content.length, method: 0, data: content, nul };
  }
  const packed = deflated ?? deflateRawReused(content, DEFLATE_LEVEL);
  return packed.length >= content.length
    ? { crc, size: content.length, method: 0, data: content, nul }
    : { crc, size: content.length, method: 8, data: packed, nul };
}

/** MS-DOS date and time of a Unix time, in UTC (git runs with TZ=UTC here). */
function dosDateTime(unixSeconds: number): { date: number; time: number } {
  const d = new Date(unixSeconds * 1000);
  return {
    date: d.getUTCDate() + (d.getUTCMonth() + 1) * 32 + (d.getUTCFullYear() - 1980) * 512,
    time: (d.getUTCSeconds() >> 1) + d.getUTCMinutes() * 32 + d.getUTCHours() * 2048,
  };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const LOCAL = 30;
const CENTRAL = 46;
const EXTRA = 9;
const TRAILER = 22;

/** Paths are byte strings (latin1: one char per byte), as read from git's trees. */
function utf8Flag(name: Buffer): number {
  if (!name.some((b) => b > 0x7f)) return 0;
  try {
    UTF8.decode(name);
    return 1 << 11;
  } catch {
    return 0;
  }
}

/**
 * The zip of `entries` (in archive order), every entry stamped with `mtime` (the commit's
 * committer time, Unix seconds) and the archive commented with `comment` (the commit id).
 */
export function writeZip(entries: readonly ZipEntry[], mtime: number, comment: string): Buffer {
  const { date, time } = dosDateTime(mtime);
  const names = entries.map((e) => Buffer.from(e.path, 'latin1'));
  let localSize = 0;
  let centralSize = 0;
  entries.forEach((e, i) => {
    const n = names[i]!.length;
    localSize += LOCAL + n + EXTRA + (e.kind === 'dir' ? 0 : e.piece.data.length);
    centralSize += CENTRAL + n + EXTRA;
  });
  const note = Buffer.from(comment, 'latin1');
  const out = Buffer.allocUnsafe(localSize + centralSize + TRAILER + note.length);
  let at = 0;
  let dir = localSize;
  const extra = (pos: number) => {
    out.writeUInt16LE(0x5455, pos);
    out.writeUInt16LE(5, pos + 2);
    out.writeUInt8(1, pos + 4);
    out.writeUInt32LE(mtime >>> 0, pos + 5);
  };
  entries.forEach((e, i) => {
    const name = names[i]!;
    const piece = e.kind === 'dir' ? null : e.piece;
    const flags = utf8Flag(name);
    const method = piece?.method ?? 0;
    const crc = piece?.crc ?? 0;
    const packed = piece?.data.length ?? 0;
    const size = piece?.size ?? 0;
    const offset = at;
    // Local file header.
    out.writeUInt32LE(0x04034b50, at);
    out.writeUInt16LE(10, at + 4);
    out.writeUInt16LE(flags, at + 6);
    out.writeUInt16LE(method, at + 8);
    out.writeUInt16LE(time, at + 10);
    out.writeUInt16LE(date, at + 12);
    out.writeUInt32LE(crc, at + 14);
    out.writeUInt32LE(packed, at + 18);
    out.writeUInt32LE(size, at + 22);
    out.writeUInt16LE(name.length, at + 26);
    out.writeUInt16LE(EXTRA, at + 28);
    name.copy(out, at + LOCAL);
    extra(at + LOCAL + name.length);
    at += LOCAL + name.length + EXTRA;
    if (piece) at += piece.data.copy(out, at);
    // Central directory entry.
    const unix = e.kind === 'symlink' || e.kind === 'exec';
    const mode = e.kind === 'symlink' ? 0o120777 : 0o100755;
    // git's "text" hint: directories have none; a file is text unless binary by attribute or NUL.
    const text = e.kind !== 'dir' && !(e.diff === undefined ? e.piece.nul : !e.diff);
    out.writeUInt32LE(0x02014b50, dir);
    out.writeUInt16LE(unix ? 0x0317 : 0, dir + 4);
    out.writeUInt16LE(10, dir + 6);
    out.writeUInt16LE(flags, dir + 8);
    out.writeUInt16LE(method, dir + 10);
    out.writeUInt16LE(time, dir + 12);
    out.writeUInt16LE(date, dir + 14);
    out.writeUInt32LE(crc, dir + 16);
    out.writeUInt32LE(packed, dir + 20);
    out.writeUInt32LE(size, dir + 24);
    out.writeUInt16LE(name.length, dir + 28);
    out.writeUInt16LE(EXTRA, dir + 30);
    out.writeUInt16LE(0, dir + 32);
    out.writeUInt16LE(0, dir + 34);
    out.writeUInt16LE(text ? 1 : 0, dir + 36);
    out.writeUInt32LE(e.kind === 'dir' ? 16 : unix ? (mode << 16) >>> 0 : 0, dir + 38);
    out.writeUInt32LE(offset, dir + 42);
    name.copy(out, dir + CENTRAL);
    extra(dir + CENTRAL + name.length);
    dir += CENTRAL + name.length + EXTRA;
  });
  // End of central directory, with the commit id as the archive's comment.
  out.writeUInt32LE(0x06054b50, dir);
  out.writeUInt16LE(0, dir + 4);
  out.writeUInt16LE(0, dir + 6);
  out.writeUInt16LE(entries.length, dir + 8);
  out.writeUInt16LE(entries.length, dir + 10);
  out.writeUInt32LE(centralSize, dir + 12);
  out.writeUInt32LE(localSize, dir + 16);
  out.writeUInt16LE(note.length, dir + 20);
  note.copy(out, dir + TRAILER);
  return out;
}

/** Limits of the plain (non-zip64) format this writer keeps to; larger archives use git. */
export const ZIP_LIMITS = { entries: 0xffff, bytes: 0xffffffff, path: 0xffff } as const;
