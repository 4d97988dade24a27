import fs from 'node:fs/promises';
import path from 'node:path';
import type { GitRef, RepositoryRefs } from './refs.js';

const OID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/**
 * The refs of a mirror (name -> object id) read from its files, as git's files backend keeps
 * them: `packed-refs`, overridden by loose files under `refs/`. Null when anything looks other
 * than this reading expects (a symbolic ref, another backend, an unreadable entry): then git
 * itself must be asked.
 */
export async function readRefFiles(gitDir: string): Promise<Map<string, string> | null> {
  const refs = new Map<string, string>();
  try {
    await fs.access(path.join(gitDir, 'reftable')).then(
      () => {
        throw new Error('reftable');
      },
      () => {},
    );
    const packed = await fs.readFile(path.join(gitDir, 'packed-refs'), 'utf8').catch((err) => {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
      throw err;
    });
    for (const line of packed.split('\n')) {
      if (line === '' || line.startsWith('#') || line.startsWith('^')) continue;
      const [oid = '', name = ''] = line.split(' ');
      if (!OID.test(oid) || !name.startsWith('refs/')) return null;
      refs.set(name, oid);
    }
    const walk = async (rel: string): Promise<boolean> => {
      const entries = await fs.readdir(path.join(gitDir, rel), { withFileTypes: true });
      for (const entry of entries) {
        const name = `${rel}/${entry.name}`;
        if (entry.isDirectory()) {
          if (!(await walk(name))) return false;
        } else if (entry.isFile()) {
          if (entry.name.endsWith('.lock')) return false;
          const oid = (await fs.readFile(path.join(gitDir, name), 'utf8')).trim();
          if (!OID.test(oid)) return false;
          refs.set(name, oid);
        } else return false;
      }
      return true;
    };
    return (await walk('refs')) ? refs : null;
  } catch {
    return null;
  }
}

/**
 * The refs of a mirror git has just cloned, read from its `packed-refs` (where a clone writes
 * every ref, each tag with the object it finally peels to) and its HEAD file, as `git ls-remote
 * --symref` of the mirror would list them. Null when there is any loose ref, the file does not
 * say its tags are fully peeled, or anything else looks unexpected: then git must list them.
 */
export async function readClonedListing(gitDir: string): Promise<RemoteListing | null> {
  try {
    const packed = await fs.readFile(path.join(gitDir, 'packed-refs'), 'latin1');
    const [header = '', ...lines] = packed.split('\n');
    if (!/^# pack-refs with:.* fully-peeled( |$)/.test(header)) return null;
    const loose = async (rel: string): Promise<boolean> => {
      const entries = await fs.readdir(path.join(gitDir, rel), { withFileTypes: true });
      for (const entry of entries) {
        if (!entry.isDirectory() || (await loose(`${rel}/${entry.name}`))) return true;
      }
      return false;
    };
    if (await loose('refs')) return null;
    const listing: RemoteListing = { refs: new Map(), peeled: new Map(), head: null };
    let last: string | null = null;
    for (const line of lines) {
      if (line === '') continue;
      if (line.startsWith('^')) {
        const oid = line.slice(1);
        if (last === null || !OID.test(oid)) return null;
        listing.peeled.set(last, oid);
        last = null;
        continue;
      }
      const [oid = '', name = '', ...more] = line.split(' ');
      if (!OID.test(oid) || !name.startsWith('refs/') || more.length > 0) return null;
      listing.refs.set(name, oid);
      last = name;
    }
    const head = /^ref: (refs\/heads\/\S+)\n?$/.exec(
      await fs.readFile(path.join(gitDir, 'HEAD'), 'utf8'),
    );
    listing.head = head?.[1] ?? null;
    return listing;
  } catch {
    return null;
  }
}

/** What `git ls-remote --symref <remote>` answered: every ref, peeled tags, and HEAD's branch. */
export interface RemoteListing {
  refs: Map<string, string>;
  /** `<ref>^{}`: what a ref that points at a tag object finally points at. */
  peeled: Map<string, string>;
  head: string | null;
}

export function parseListing(text: string): RemoteListing {
  const listing: RemoteListing = { refs: new Map(), peeled: new Map(), head: null };
  for (const line of text.split('\n')) {
    const symref = /^ref: (refs\/heads\/\S+)\tHEAD$/.exec(line);
    if (symref) {
      listing.head = symref[1] ?? null;
      continue;
    }
    const [oid = '', name = ''] = line.split('\t');
    if (!OID.test(oid) || !name.startsWith('refs/')) continue;
    if (name.endsWith('^{}')) listing.peeled.set(name.slice(0, -3), oid);
    else listing.refs.set(name, oid);
  }
  return listing;
}

/**
 * The tags and branches of a listing, as listRefs would list them once the mirror holds exactly
 * these refs. Unlike listRefs, a ref may still point at something other than a commit (a tree, a
 * blob): whoever reads its commit must skip it then.
 */
export function refsOfListing(listing: RemoteListing): RepositoryRefs {
  const tags: GitRef[] = [];
  const branches: GitRef[] = [];
  const names = [...listing.refs.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const name of names) {
    const oid = listing.refs.get(name)!;
    const peeled = listing.peeled.get(name);
    if (name.startsWith('refs/heads/')) {
      // A branch must point at a commit itself, never through a tag.
      if (!peeled) branches.push({ name: name.slice(11), commit: oid });
    } else if (name.startsWith('refs/tags/')) {
      tags.push({ name: name.slice(10), commit: peeled ?? oid });
    }
  }
  const head = listing.head?.slice(11) ?? null;
  const defaultBranch = head !== null && branches.some((b) => b.name === head) ? head : null;
  return { tags, branches, defaultBranch };
}
