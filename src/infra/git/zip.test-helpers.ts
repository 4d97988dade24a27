import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

/** One central-directory entry of a zip, with what its data unpacks to. */
export interface ZipRecord {
  name: string;
  madeBy: number;
  needed: number;
  flags: number;
  method: number;
  time: number;
  date: number;
  crc: number;
  size: number;
  internal: number;
  external: number;
  extra: string;
  /** SHA-1 of the unpacked bytes. */
  content: string;
}

/** Every field of a zip's central directory (compressed sizes and offsets aside) and comment. */
export function readZip(zip: Buffer): { records: ZipRecord[]; comment: string } {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('not a zip');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const comment = zip.toString('latin1', end + 22, end + 22 + zip.readUInt16LE(end + 20));
  const records: ZipRecord[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('bad central directory');
    const nameLen = zip.readUInt16LE(at + 28);
    const extraLen = zip.readUInt16LE(at + 30);
    const commentLen = zip.readUInt16LE(at + 32);
    const method = zip.readUInt16LE(at + 10);
    const packed = zip.readUInt32LE(at + 20);
    const offset = zip.readUInt32LE(at + 42);
    const local = offset + 30 + zip.readUInt16LE(offset + 26) + zip.readUInt16LE(offset + 28);
    const raw = zip.subarray(local, local + packed);
    const data = method === 8 ? zlib.inflateRawSync(raw) : raw;
    const extra = zip.subarray(at + 46 + nameLen, at + 46 + nameLen + extraLen);
    records.push({
      name: zip.toString('latin1', at + 46, at + 46 + nameLen),
      madeBy: zip.readUInt16LE(at + 4),
      needed: zip.readUInt16LE(at + 6),
      flags: zip.readUInt16LE(at + 8),
      method,
      time: zip.readUInt16LE(at + 12),
      date: zip.readUInt16LE(at + 14),
      crc: zip.readUInt32LE(at + 16),
      size: zip.readUInt32LE(at + 24),
      internal: zip.readUInt16LE(at + 36),
      external: zip.readUInt32LE(at + 38),
      extra: extra.toString('hex'),
      content: crypto.createHash('sha1').update(data).digest('hex'),
    });
    at += 46 + nameLen + extraLen + commentLen;
  }
  return { records, comment };
}

/**
 * What `unzip` makes of a zip on disk: every path with its type, permission bits, and content
 * (a symlink's target), sorted.
 */
export function unpack(zip: Buffer): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-unzip-'));
  try {
    const file = path.join(dir, 'archive.zip');
    fs.writeFileSync(file, zip);
    const out = path.join(dir, 'out');
    fs.mkdirSync(out);
    execFileSync('unzip', ['-q', '-o', file, '-d', out]);
    const seen: string[] = [];
    const walk = (rel: string) => {
      for (const name of fs.readdirSync(path.join(out, rel)).sort()) {
        const p = path.join(rel, name);
        const full = path.join(out, p);
        const st = fs.lstatSync(full);
        if (st.isSymbolicLink()) seen.push(`${p} -> ${fs.readlinkSync(full)}`);
        else if (st.isDirectory()) {
          seen.push(`${p}/`);
          walk(p);
        } else {
          const hash = crypto.createHash('sha1').update(fs.readFileSync(full)).digest('hex');
          seen.push(`${p} ${(st.mode & 0o111) !== 0 ? 'x' : '-'} ${hash}`);
        }
      }
    };
    walk('');
    return seen;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A bare repository with `count` releases on main, each changing composer.json and
 * src/Version.php (README.md is added once), tagged `v1.<n>.0`, made by one `git fast-import`.
 */
export function releasesRepo(count: number): { dir: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-releases-'));
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', dir]);
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const stream: string[] = [];
  for (let i = 0; i < count; i++) {
    const who = `Fixture <fixture@packyard.test> ${1_600_000_000 + i * 3600} +0000`;
    stream.push(
      `commit refs/heads/main\nmark :${i + 1}\nauthor ${who}\ncommitter ${who}\n`,
      data(`Release ${i}`),
      'M 100644 inline composer.json\n',
      data(`{"name": "acme/many", "description": "release ${i}"}\n`),
      'M 100644 inline src/Version.php\n',
      data(`<?php const VERSION = '1.${i}.0';\n`),
      ...(i === 0 ? ['M 100644 inline README.md\n', data('# acme/many\n')] : []),
      `\nreset refs/tags/v1.${i}.0\nfrom :${i + 1}\n\n`,
    );
  }
  execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, input: stream.join('') });
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
