import { catFileBatch } from '../../infra/git/catfile.js';
import type { ObjectReader } from '../../infra/git/index.js';
import type { VersionRow } from '../packages/catalog.js';

/**
 * The README of each version (docs/portal.md, "Readme of a version"). The analysis reads every
 * new commit's tree next to its composer.json, in the same `git cat-file --batch`; the README's
 * blob id comes from that listing. Each distinct README blob is then read once, and only when no
 * version the sync started from already has it (those are stored: package_readmes.ts).
 */

/** What the analysis reads to find the README: the folder's tree next to its composer.json. */
export function readmeTreeName(commit: string, subdir: string | undefined): string {
  return subdir ? `${commit}:${subdir}` : `${commit}^{tree}`;
}

/** A version's README as the analysis found it: its blob id ('' for none) and, when read, text. */
export interface VersionReadme {
  readmeBlob?: string;
  readmeText?: string;
}

/**
 * Reads the text of the READMEs `fresh` candidates point at, once per distinct blob, skipping
 * the blobs of `known` versions (already stored). Sets `readmeText` on each candidate whose blob
 * was read.
 */
export async function readReadmeTexts(
  gitDir: string,
  fresh: VersionReadme[],
  known: readonly VersionRow[] | undefined,
  opts: { reader?: ObjectReader; timeoutMs?: number },
): Promise<void> {
  const stored = new Set((known ?? []).map((v) => v.readme_blob));
  const wanted = [
    ...new Set(fresh.map((c) => c.readmeBlob).filter((b): b is string => !!b && !stored.has(b))),
  ];
  if (wanted.length === 0) return;
  const { reader } = opts;
  const blobs = reader
    ? await Promise.all(wanted.map((oid) => reader.read(oid)))
    : await catFileBatch(gitDir, wanted, { timeoutMs: opts.timeoutMs });
  const text = new Map<string, string>();
  wanted.forEach((oid, i) => {
    const blob = blobs[i];
    if (blob?.type === 'blob') text.set(oid, blob.content.toString('utf8'));
  });
  for (const c of fresh) {
    const t = c.readmeBlob ? text.get(c.readmeBlob) : undefined;
    if (t !== undefined) c.readmeText = t;
  }
}
