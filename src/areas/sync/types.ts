import type { PackageRow, VersionRow } from '../packages/catalog.js';
import type { Candidate, SkippedRef } from './analyze.js';

export interface SyncResult {
  versions: number;
  versions_added: string[];
  versions_removed: string[];
  skipped: SkippedRef[];
  /** Monorepo parents only: what happened to each child package. */
  children?: ChildResult[];
}

export interface ChildResult {
  name: string;
  path: string;
  versions: number;
  versions_added: string[];
  versions_removed: string[];
}

/** A candidate version and the folder its archive is built from ('' for the whole tree). */
export type Placed = Candidate & { subdir: string };

/** One package (the synced one or a monorepo child) and the versions it should end up with. */
export interface Target {
  pkg: PackageRow;
  /** New monorepo children are inserted in the final transaction. */
  isNew: boolean;
  path: string;
  candidates: Placed[];
  skipped: SkippedRef[];
  existing: VersionRow[];
  readme: string | null;
}

export interface BuiltArchive {
  key: string;
  shasum: string;
  size: number;
  /** Where the zip starts inside the pack `key` (archive-packs.ts); null: the object is the zip. */
  offset: number | null;
}

/** The zip one version needs: a commit (and folder) of one package. */
export interface ArchiveJob {
  tenantId: string;
  packageId: string;
  commit: string;
  subdir?: string;
}
