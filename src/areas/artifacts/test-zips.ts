import { execFileSync } from 'node:child_process';

/** One entry of a zip built for a test. */
export interface ZipSpec {
  name: string;
  data?: string;
  /** That many zero bytes as the content (compresses to almost nothing). */
  zeros?: number;
  /** Unix mode stored in the external attributes, e.g. 0o120777 for a symlink. */
  mode?: number;
}

const SCRIPT = `
import io, json, sys, zipfile
buf = io.BytesIO()
with zipfile.ZipFile(buf, 'w', zipfile.ZIP_DEFLATED) as z:
    for e in json.load(sys.stdin):
        info = zipfile.ZipInfo(e['name'])
        info.compress_type = zipfile.ZIP_DEFLATED
        if 'mode' in e:
            info.create_system = 3
            info.external_attr = (e['mode'] & 0xFFFF) << 16
        data = b'\\0' * e['zeros'] if 'zeros' in e else e.get('data', '').encode()
        z.writestr(info, data)
sys.stdout.buffer.write(buf.getvalue())
`;

/**
 * Builds a zip with Python's zipfile, which writes whatever names and modes it is given:
 * the way to craft the malicious archives the checks must refuse.
 */
export function buildZip(entries: ZipSpec[]): Buffer {
  return execFileSync('python3', ['-c', SCRIPT], {
    input: JSON.stringify(entries),
    maxBuffer: 256 * 1024 * 1024,
  });
}

/** A zip of a package: composer.json plus files, optionally inside one top-level folder. */
export function packageZip(
  composer: Record<string, unknown>,
  files: Record<string, string> = {},
  folder = '',
): Buffer {
  const prefix = folder ? `${folder}/` : '';
  return buildZip([
    { name: `${prefix}composer.json`, data: JSON.stringify(composer, null, 2) },
    ...Object.entries(files).map(([name, data]) => ({ name: `${prefix}${name}`, data })),
  ]);
}

/** Rewrites the uncompressed size every central directory header declares (a lying zip). */
export function withDeclaredSize(zip: Buffer, size: number): Buffer {
  const out = Buffer.from(zip);
  for (let i = 0; i + 46 <= out.length; i++) {
    if (out.readUInt32LE(i) === 0x02014b50) out.writeUInt32LE(size, i + 24);
  }
  return out;
}
