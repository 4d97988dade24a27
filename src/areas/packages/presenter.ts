import { compareVersions } from '../../composer/semver/index.js';
import type { PackageDetailDto, PackageDto, VersionDto } from './schema.js';
import type { PackageRow, VersionRow } from './store.js';

export function presentPackage(row: PackageRow): PackageDto {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    repository_url: row.repository_url,
    type: row.type,
    latest_version: row.latest_version,
    synced_at: row.synced_at,
    sync_status: row.sync_status,
    sync_error: row.sync_error,
    created_at: row.created_at,
    abandoned: row.abandoned === 1,
  };
}

export function presentVersion(row: VersionRow, downloads: number): VersionDto {
  return {
    version: row.version,
    version_normalized: row.version_normalized,
    released_at: row.released_at,
    downloads,
    yanked: row.yanked === 1,
    deprecated: row.deprecated === 1,
    reference: row.reference,
  };
}

/** Versions newest first, as REST and GraphQL list them. */
export function presentVersions(
  versions: readonly VersionRow[],
  downloadsOf: (version: VersionRow) => number,
): VersionDto[] {
  return [...versions]
    .sort((a, b) => compareVersions(b.version_normalized, a.version_normalized))
    .map((v) => presentVersion(v, downloadsOf(v)));
}

/** A package with its versions, newest first. */
export function presentPackageDetail(
  row: PackageRow,
  versions: VersionRow[],
  downloads: Map<string, number>,
): PackageDetailDto {
  return {
    ...presentPackage(row),
    versions: presentVersions(versions, (v) => downloads.get(v.version_normalized) ?? 0),
  };
}
