import yauzl from 'yauzl';
import type { Entry, ZipFile } from 'yauzl';
import { invalid } from '../../errors.js';
import { normalizeVersion, parseStability } from '../../composer/semver/index.js';
import { textProblem } from '../../http/validation.js';

/** Most entries an artifact zip may hold. */
export const MAX_ENTRIES = 10_000;
/** Largest composer.json read from a zip. */
export const MAX_COMPOSER_JSON_BYTES = 1024 * 1024;

export interface ZipLimits {
  /** Largest total uncompressed size of all entries (zip bombs). */
  maxUncompressedBytes: number;
  maxEntries?: number;
}

export interface ArtifactZip {
  /** The parsed composer.json. */
  composer: Record<string, unknown>;
  /** Where composer.json was found: `composer.json` or `<folder>/composer.json`. */
  composerPath: string;
  entries: number;
  uncompressedBytes: number;
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const UNICODE_PATH_FIELD = 0x7075;

/** A rejection of the uploaded zip: 400 VALIDATION_ERROR on the field `body`. */
const bad = (message: string) => invalid('body', message);

/** A zip in memory, or one received into a file (read from disk, never loaded whole). */
export type ZipSource = Buffer | { path: string; size: number };

const OPEN_OPTIONS = {
  lazyEntries: true,
  decodeStrings: false,
  validateEntrySizes: true,
  autoClose: false,
} as const;

function openZip(source: ZipSource): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    const done = (err: Error | null, zip?: ZipFile) =>
      err || !zip
        ? reject(bad(`not a readable zip archive: ${err?.message ?? 'unknown error'}`))
        : resolve(zip);
    if (Buffer.isBuffer(source)) yauzl.fromBuffer(source, OPEN_OPTIONS, done);
    else yauzl.open(source.path, OPEN_OPTIONS, done);
  });
}

/** Every entry of the central directory, in order; stops at the first structural error. */
function listEntries(zip: ZipFile): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    zip.on('entry', (entry: Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', (err: Error) => reject(bad(`not a readable zip archive: ${err.message}`)));
    zip.readEntry();
  });
}

/**
 * The names an extractor may use for an entry: the raw name (UTF-8 when flagged, else read
 * byte-wise) and the Info-ZIP Unicode Path extra field, which unzip prefers when present.
 */
function entryNames(entry: Entry): string[] {
  const raw = entry.fileName as unknown as Buffer;
  const utf8 = (entry.generalPurposeBitFlag & 0x800) !== 0;
  const names = [raw.toString(utf8 ? 'utf8' : 'latin1')];
  for (const field of entry.extraFields) {
    if (field.id === UNICODE_PATH_FIELD && field.data.length > 5 && field.data[0] === 1) {
      names.push(field.data.subarray(5).toString('utf8'));
    }
  }
  return names.map((n) => n.replace(/\\/g, '/'));
}

/** Why an entry name is unsafe to extract, or null. */
export function unsafeName(name: string): string | null {
  if (name === '') return 'has an empty name';
  if (name.includes('\0')) return 'has a NUL byte in its name';
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) return 'has an absolute path';
  if (name.split('/').includes('..')) return 'has a ".." segment (path traversal)';
  return null;
}

const isSymlink = (entry: Entry) => ((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK;

/** Reads one entry to its end, checking its real size against the declared one. */
function readEntry(zip: ZipFile, entry: Entry, keep: boolean): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err) return reject(err);
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (keep && size <= MAX_COMPOSER_JSON_BYTES) chunks.push(chunk);
      });
      stream.once('error', reject);
      stream.once('end', () => resolve(keep ? Buffer.concat(chunks) : null));
    });
  });
}

/** Where Composer looks for composer.json: the root, or inside the one top-level folder. */
function locateComposerJson(names: string[]): string {
  const files = new Set(names.filter((n) => !n.endsWith('/')));
  if (files.has('composer.json')) return 'composer.json';
  const top = new Set(
    names.filter((n) => !n.startsWith('__MACOSX/')).map((n) => n.split('/')[0] ?? ''),
  );
  if (top.size === 1) {
    const [folder] = [...top];
    if (files.has(`${folder}/composer.json`)) return `${folder}/composer.json`;
  }
  if (top.size > 1) {
    const shown = [...top].slice(0, 5).join(', ');
    throw bad(
      `no composer.json at the root of the zip, and it has several top-level entries (${shown}); ` +
        'put composer.json at the root or inside a single top-level folder',
    );
  }
  throw bad('no composer.json at the root of the zip or inside its single top-level folder');
}

function parseComposerJson(bytes: Buffer, where: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    throw bad(`${where} is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw bad(`${where} must hold a JSON object`);
  }
  return data as Record<string, unknown>;
}

/**
 * Reads and checks an uploaded artifact zip: every entry name safe to extract (no absolute
 * paths, no `..`), no symlinks, at most `maxEntries` entries and `maxUncompressedBytes` unpacked
 * (each entry is inflated to check its real size), composer.json where Composer looks for it,
 * valid, and naming `expectedName`. Any failure is a 400 VALIDATION_ERROR on `body`.
 */
export async function readArtifactZip(
  source: ZipSource,
  expectedName: string,
  limits: ZipLimits,
): Promise<ArtifactZip> {
  const maxEntries = limits.maxEntries ?? MAX_ENTRIES;
  const size = Buffer.isBuffer(source) ? source.length : source.size;
  if (size === 0) throw bad('the body is empty; send the zip with Content-Type: application/zip');
  const zip = await openZip(source);
  try {
    if (zip.entryCount > maxEntries) {
      throw bad(`the zip has ${zip.entryCount} entries; at most ${maxEntries} are allowed`);
    }
    const entries = await listEntries(zip);
    if (entries.length === 0) throw bad('the zip is empty');
    const named: { entry: Entry; name: string }[] = [];
    let declared = 0;
    for (const entry of entries) {
      const names = entryNames(entry);
      for (const name of names) {
        const problem = unsafeName(name);
        if (problem) throw bad(`zip entry "${name}" ${problem}`);
      }
      const name = names[0] ?? '';
      if (isSymlink(entry))
        throw bad(`zip entry "${name}" is a symbolic link; links are not allowed`);
      if (entry.isEncrypted()) throw bad(`zip entry "${name}" is encrypted`);
      declared += entry.uncompressedSize;
      if (declared > limits.maxUncompressedBytes) {
        throw bad(
          `the zip unpacks to more than ${limits.maxUncompressedBytes} bytes (the limit is 10 times ARTIFACT_MAX_BYTES)`,
        );
      }
      named.push({ entry, name });
    }

    const composerPath = locateComposerJson(named.map((n) => n.name));
    let composerBytes: Buffer | null = null;
    for (const { entry, name } of named) {
      if (name.endsWith('/')) continue;
      const keep = name === composerPath;
      if (keep && entry.uncompressedSize > MAX_COMPOSER_JSON_BYTES) {
        throw bad(`${composerPath} is larger than ${MAX_COMPOSER_JSON_BYTES} bytes`);
      }
      try {
        const content = await readEntry(zip, entry, keep);
        if (keep) composerBytes = content;
      } catch (err) {
        throw bad(`zip entry "${name}" cannot be read: ${(err as Error).message}`);
      }
    }
    const composer = parseComposerJson(composerBytes ?? Buffer.alloc(0), composerPath);
    const name = typeof composer.name === 'string' ? composer.name.toLowerCase() : null;
    if (!name) throw bad(`${composerPath} has no "name"; it must be "${expectedName}"`);
    if (name !== expectedName) {
      throw bad(`${composerPath} names "${name}", but this package is "${expectedName}"`);
    }
    return { composer, composerPath, entries: entries.length, uncompressedBytes: declared };
  } finally {
    zip.close();
  }
}

export interface ArtifactVersion {
  /** The pretty version, as given. */
  version: string;
  normalized: string;
  isDev: boolean;
}

/**
 * The version an upload becomes: `?version=` when given, else composer.json's `version`;
 * it must normalize as Composer would (dev versions such as `dev-main` included).
 */
export function resolveArtifactVersion(
  composer: Record<string, unknown>,
  given: string | undefined,
): ArtifactVersion {
  let raw: string;
  if (given !== undefined && given.trim() !== '') {
    raw = given.trim();
  } else if (typeof composer.version === 'string' && composer.version.trim() !== '') {
    raw = composer.version.trim();
  } else if (composer.version !== undefined) {
    throw invalid('version', 'composer.json "version" must be a non-empty string');
  } else {
    throw invalid(
      'version',
      'is missing: pass ?version= or put a "version" in the zip\'s composer.json',
    );
  }
  const problem = textProblem(raw, false);
  if (problem) throw invalid('version', problem);
  let normalized: string;
  try {
    normalized = normalizeVersion(raw);
  } catch (err) {
    throw invalid('version', `"${raw}" is not a valid Composer version: ${(err as Error).message}`);
  }
  return { version: raw, normalized, isDev: parseStability(normalized) === 'dev' };
}
