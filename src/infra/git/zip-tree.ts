import { attributesOf, parseAttributes } from './attributes.js';
import type { AttrFile, AttrFrame } from './attributes.js';
import { GitError } from './errors.js';
import type { ObjectReader } from './object-reader.js';

export type EntryKind = 'tree' | 'file' | 'exec' | 'symlink' | 'gitlink';

export interface TreeEntry {
  /** The name's bytes as a latin1 string (git paths are bytes, not necessarily UTF-8). */
  name: string;
  kind: EntryKind;
  oid: string;
}

/** What a zip of a tree holds, in git archive's order, before its blobs are read. */
export type Draft =
  | { kind: 'dir'; path: string }
  | { kind: 'file' | 'exec' | 'symlink'; path: string; oid: string; diff?: boolean };

export type BlobDraft = Exclude<Draft, { kind: 'dir' }>;

/** The job must be left to git archive, for this reason. */
export class Unsupported extends Error {}

/** An attribute file in force, and the blob it was read from (part of a listing's identity). */
type Frame = AttrFrame & { oid: string };

const isRegular = (e: TreeEntry) => e.kind === 'file' || e.kind === 'exec';

const KINDS: Record<number, EntryKind> = {
  0o040000: 'tree',
  0o120000: 'symlink',
  0o160000: 'gitlink',
};

/** Parses a raw tree object (`<octal mode> <name>\0<binary oid>` records). */
export function parseTree(content: Buffer, oidBytes: number): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let at = 0;
  while (at < content.length) {
    const space = content.indexOf(0x20, at);
    const nul = content.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 1 + oidBytes > content.length) {
      throw new GitError('Malformed tree object');
    }
    const mode = parseInt(content.toString('latin1', at, space), 8);
    const type = mode & 0o170000;
    // Regular files: git itself reads any permission bits as 644 or 755 (the owner's x bit).
    const kind = type === 0o100000 ? (mode & 0o100 ? 'exec' : 'file') : KINDS[type];
    if (!kind) throw new Unsupported(`unsupported file mode ${mode.toString(8)}`);
    entries.push({
      name: content.toString('latin1', space + 1, nul),
      kind,
      oid: content.toString('hex', nul + 1, nul + 1 + oidBytes),
    });
    at = nul + 1 + oidBytes;
  }
  return entries;
}

/** Upper bounds of what is kept between the zips of one build. */
const MAX_TREE_ENTRIES = 2_000_000;
const MAX_ATTRIBUTES_BYTES = 64 * 1024;

/**
 * The trees and attribute files of a repository as one build reads them: each object once, many
 * requests in flight. Subtree listings are remembered, so versions sharing a folder list it once.
 */
export class TreeSource {
  private readonly trees = new Map<string, TreeEntry[] | Unsupported>();
  private readonly attributes = new Map<string, AttrFile>();
  private readonly listings = new Map<string, { drafts: Draft[]; touched: boolean }>();
  private cachedEntries = 0;
  private listed = 0;

  constructor(
    private readonly reader: ObjectReader,
    private readonly oidBytes: number,
  ) {}

  /** Reads every tree (and .gitattributes) below `roots` that is not known yet. */
  async load(roots: readonly string[]): Promise<void> {
    if (this.cachedEntries > MAX_TREE_ENTRIES) {
      this.trees.clear();
      this.cachedEntries = 0;
    }
    let frontier = [...new Set(roots)].filter((oid) => !this.trees.has(oid));
    while (frontier.length > 0) {
      const next = new Set<string>();
      const attrs = new Set<string>();
      const objects = await Promise.all(frontier.map((oid) => this.reader.read(oid)));
      frontier.forEach((oid, i) => {
        const obj = objects[i];
        if (obj?.type !== 'tree')
          throw new GitError(`Tree ${oid} not found`, { kind: 'not-found' });
        let entries: TreeEntry[] | Unsupported;
        try {
          entries = parseTree(obj.content, this.oidBytes);
        } catch (err) {
          if (!(err instanceof Unsupported)) throw err;
          entries = err;
        }
        this.trees.set(oid, entries);
        if (entries instanceof Unsupported) return;
        this.cachedEntries += entries.length;
        for (const e of entries) {
          if (e.kind === 'tree' && !this.trees.has(e.oid)) next.add(e.oid);
          const isAttributes = e.name === '.gitattributes' && isRegular(e);
          if (isAttributes && !this.attributes.has(e.oid)) attrs.add(e.oid);
        }
      });
      await this.loadAttributes([...attrs]);
      frontier = [...next];
    }
  }

  private async loadAttributes(oids: string[]): Promise<void> {
    const blobs = await Promise.all(oids.map((oid) => this.reader.read(oid, MAX_ATTRIBUTES_BYTES)));
    oids.forEach((oid, i) => {
      const blob = blobs[i];
      this.attributes.set(
        oid,
        blob?.content
          ? parseAttributes(blob.content.toString('latin1'))
          : { lines: [], unsupported: 'a .gitattributes larger than 64 KB' },
      );
    });
  }

  /**
   * What `git archive` of the tree `root` writes, in its order: each folder (as `path/`) just
   * before the first file inside it, folders with no file left out, export-ignore applied with
   * the tree's own .gitattributes files. Throws Unsupported when git must build it.
   */
  list(root: string): Draft[] {
    if (this.listed > MAX_TREE_ENTRIES) {
      this.listings.clear();
      this.listed = 0;
    }
    return this.walk(root, '', []).drafts;
  }

  private walk(
    oid: string,
    prefix: string,
    frames: Frame[],
  ): { drafts: Draft[]; touched: boolean } {
    // Root listings are one per version: only folders are worth remembering.
    const memo =
      prefix === ''
        ? null
        : `${oid}|${prefix}|${frames.map((f) => `${f.base}@${f.oid}`).join('|')}`;
    const known = memo === null ? undefined : this.listings.get(memo);
    if (known) return known;
    const entries = this.trees.get(oid);
    if (!entries) throw new GitError(`Tree ${oid} was not read`);
    if (entries instanceof Unsupported) throw entries;
    const here = this.framesFor(entries, prefix, frames);
    const drafts: Draft[] = [];
    let touched = false;
    const ignored = (path: string, isDir: boolean) =>
      here.length > 0 &&
      attributesOf(here, path, isDir, ['export-ignore']).get('export-ignore') === true;
    for (const e of entries) {
      const path = prefix + e.name;
      if (e.kind === 'tree') {
        if (ignored(path, true)) continue;
        const sub = this.walk(e.oid, `${path}/`, here);
        if (!sub.touched) continue;
        touched = true;
        drafts.push({ kind: 'dir', path: `${path}/` });
        for (const d of sub.drafts) drafts.push(d);
        continue;
      }
      // A file (even one left out) makes git write the folders above it.
      touched = true;
      if (e.kind === 'gitlink') {
        if (!ignored(path, true)) drafts.push({ kind: 'dir', path: `${path}/` });
        continue;
      }
      if (here.length === 0) {
        drafts.push({ kind: e.kind, path, oid: e.oid });
        continue;
      }
      const attrs = attributesOf(here, path, false, ['export-ignore', 'diff']);
      if (attrs.get('export-ignore') === true) continue;
      const diff = attrs.get('diff');
      drafts.push({
        kind: e.kind,
        path,
        oid: e.oid,
        ...(typeof diff === 'boolean' ? { diff } : {}),
      });
    }
    const result = { drafts, touched };
    if (memo !== null) {
      this.listings.set(memo, result);
      this.listed += drafts.length;
    }
    return result;
  }

  /** The attribute files in force inside a folder: its parents' and its own .gitattributes. */
  private framesFor(entries: TreeEntry[], prefix: string, frames: Frame[]): Frame[] {
    const own = entries.find((e) => e.name === '.gitattributes');
    if (!own) return frames;
    if (!isRegular(own)) throw new Unsupported(`${prefix}.gitattributes is not a regular file`);
    const file = this.attributes.get(own.oid);
    if (!file) throw new GitError(`${prefix}.gitattributes was not read`);
    if (file.unsupported) throw new Unsupported(`${prefix}.gitattributes has ${file.unsupported}`);
    return [...frames, { base: prefix, file, oid: own.oid }];
  }
}
