import fs from 'node:fs';
import { transact } from '../../unit-of-work.js';
import type { Ctx, Deps } from '../../context.js';
import { nowIso } from '../../context.js';
import { conflict, forbidden, notFound } from '../../errors.js';
import { newId } from '../../infra/crypto.js';
import { buildVersionEntry, rebuildPackageMetadata } from '../../composer/metadata.js';
import { compareVersions, parseStability } from '../../composer/semver/index.js';
import { customerPackageAccess } from '../../composer/visibility.js';
import { scopeAllows } from '../../composer/package-scopes.js';
import type { CustomerPrincipal } from '../auth/service.js';
import * as store from '../packages/catalog.js';
import type { PackageRow, VersionRow } from '../packages/catalog.js';
import { archiveKey } from '../sync/archives.js';
import { readArtifactZip, resolveArtifactVersion } from './zip.js';
import * as uploads from './store.js';
import type { ReceivedZip } from './received-zip.js';
import { assertStorageLeft } from '../usage/service.js';
import { raiseUsageNotifications } from '../usage/notifications.js';
import { recountStorage } from '../usage/storage-counter.js';

/** How many times ARTIFACT_MAX_BYTES a zip may unpack to. */
export const UNPACK_FACTOR = 10;

/** The caller of an upload: the request, with the customer principal when a customer calls. */
export type UploadCtx = Ctx & { customerPrincipal?: CustomerPrincipal | null };

/** Uploaded zips of `artifact` packages: checked, stored as they are and served like any version. */
export class ArtifactService {
  constructor(private readonly deps: Deps) {}

  async upload(
    ctx: UploadCtx,
    name: string,
    upload: ReceivedZip,
    givenVersion?: string,
  ): Promise<{ pkg: PackageRow; version: VersionRow }> {
    const { db, storage, config } = this.deps;
    const pkg = await store.findPackageByName(db, ctx.tenantId, name.toLowerCase());
    if (!pkg) throw notFound(`Package ${name}`);
    if (ctx.actor.kind === 'customer') await this.assertCustomerMayUpload(ctx, pkg);
    if (pkg.type !== 'artifact') {
      throw conflict(
        `${pkg.name} is a ${pkg.type} package; only packages of type "artifact" accept uploads`,
      );
    }

    const zip = await readArtifactZip(upload, pkg.name, {
      maxUncompressedBytes: UNPACK_FACTOR * config.artifactMaxBytes,
    });
    const v = resolveArtifactVersion(zip.composer, givenVersion);
    const existing = await store.findVersion(db, pkg, v.normalized);
    if (existing) throw duplicate(pkg, existing.version);

    const shasum = upload.sha1;
    const key = archiveKey(pkg.tenant_id, pkg.id, shasum);
    await assertStorageLeft(this.deps, pkg.tenant_id, upload.size);
    await storage.putStream(key, fs.createReadStream(upload.path));

    const now = nowIso();
    const row: VersionRow = {
      id: newId(),
      tenant_id: pkg.tenant_id,
      package_id: pkg.id,
      version: v.version,
      version_normalized: v.normalized,
      is_dev: v.isDev ? 1 : 0,
      reference: shasum,
      released_at: now,
      metadata: JSON.stringify(
        buildVersionEntry({
          name: pkg.name,
          version: v.version,
          normalized: v.normalized,
          reference: shasum,
          shasum,
          time: now,
          defaultBranch: false,
          composer: zip.composer,
        }),
      ),
      yanked: 0,
      deprecated: 0,
      dist_key: key,
      dist_shasum: shasum,
      dist_size: upload.size,
      dist_offset: null,
      // An uploaded archive's README is not read: the portal shows the package's own.
      readme_blob: null,
      created_at: now,
      updated_at: now,
    };
    try {
      await transact(this.deps, ctx, async (tx) => {
        const trx = tx.db;
        await uploads.insertVersion(trx, row);
        const all = await uploads.versionNumbers(trx, pkg);
        const latest = latestVersion(all);
        const description =
          typeof zip.composer.description === 'string' ? zip.composer.description : null;
        await uploads.markUploaded(trx, pkg, {
          latest_version: latest,
          description:
            latest === v.version || pkg.description === null ? description : pkg.description,
          synced_at: now,
          sync_status: 'ok',
          sync_error: null,
          updated_at: now,
        });
        await rebuildPackageMetadata(trx, pkg.tenant_id, pkg.id);
        await recountStorage(trx, pkg.tenant_id);
        tx.afterCommit(() => raiseUsageNotifications(this.deps, pkg.tenant_id, ['storage_bytes']));
        await tx.audit({
          action: 'package.upload',
          target: { type: 'package', id: pkg.name },
          summary: { version: v.version, shasum, size: upload.size },
        });
        tx.accessChanged();
        tx.emit('version.published', { package: pkg.name, version: v.version });
        tx.emit('package.synced', {
          package: pkg.name,
          versions_added: [v.version],
          versions_removed: [],
          status: 'ok',
        });
        tx.publish({
          type: 'package.synced',
          tenantId: pkg.tenant_id,
          package: pkg.name,
          status: 'ok',
          versionsAdded: [v.version],
          versionsRemoved: [],
          error: null,
          at: now,
        });
      });
    } catch (err) {
      if (/unique|duplicate/i.test((err as Error).message)) throw duplicate(pkg, v.version);
      throw err;
    }
    return { pkg, version: row };
  }

  /** Customers upload only to packages their customer sees and their token's scopes allow. */
  private async assertCustomerMayUpload(ctx: UploadCtx, pkg: PackageRow): Promise<void> {
    if (ctx.actor.kind !== 'customer') return;
    const access = await customerPackageAccess(
      this.deps.db,
      pkg.tenant_id,
      ctx.actor.customerId,
      pkg.id,
    );
    const scopes = ctx.customerPrincipal?.packageScopes ?? [];
    if (!access.has(pkg.id) || !scopeAllows(scopes, pkg.name)) {
      throw forbidden(`This token cannot see ${pkg.name}`);
    }
  }
}

function duplicate(pkg: PackageRow, version: string) {
  return conflict(`Version ${version} of ${pkg.name} already exists; uploads never replace one`);
}

/** The newest tagged version, stable preferred (as a sync computes it). */
function latestVersion(
  versions: { version: string; version_normalized: string; is_dev: number }[],
): string | null {
  const tags = versions.filter((v) => v.is_dev !== 1);
  const stable = tags.filter((v) => parseStability(v.version_normalized) === 'stable');
  const pool = stable.length > 0 ? stable : tags;
  const best = [...pool].sort((a, b) =>
    compareVersions(b.version_normalized, a.version_normalized),
  )[0];
  return best?.version ?? null;
}
