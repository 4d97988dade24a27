import { Type } from 'typebox';
import type { App } from '../../http/app-types.js';
import { ctxOf } from '../../http/auth.js';
import { ErrorResponses, PackageParams } from '../../http/schemas.js';
import { invalid } from '../../errors.js';
import { parseConstraint } from '../../composer/semver/index.js';
import { VersionGate } from '../../composer/visibility.js';
import { presentPackageDetail } from './presenter.js';
import { VersionSchema } from './schema.js';
import type { VersionDto } from './schema.js';
import { packageName } from './service.js';

export const VersionPreviewQuery = Type.Object(
  { constraint: Type.String({ minLength: 1, maxLength: 255 }) },
  { additionalProperties: false },
);

export const VersionPreviewSchema = Type.Object({
  name: Type.String(),
  constraint: Type.String(),
  /** The versions a grant with this constraint shows a customer, newest first. */
  versions: Type.Array(VersionSchema),
  /** Versions the constraint matches that stay hidden because they are yanked. */
  yanked: Type.Array(Type.String()),
  total_versions: Type.Integer(),
});

/**
 * Which of the package's versions a grant constraint makes visible: the Composer metadata's
 * rule (the constraint matches, the version is not yanked), with the server's own engine.
 */
export function previewConstraint(versions: VersionDto[], constraint: string) {
  let gate;
  try {
    gate = new VersionGate([parseConstraint(constraint)]);
  } catch (err) {
    throw invalid('constraint', err instanceof Error ? err.message : String(err));
  }
  const matched = versions.filter((v) => gate.admits(v.version_normalized));
  return {
    versions: matched.filter((v) => !v.yanked),
    yanked: matched.filter((v) => v.yanked).map((v) => v.version),
  };
}

/** GET /packages/{vendor}/{name}/versions?constraint=: the admin UI's grant preview. */
export async function versionPreviewRoutes(app: App): Promise<void> {
  app.get(
    '/packages/:vendor/:name/versions',
    {
      schema: {
        tags: ['packages'],
        summary: 'Versions a grant constraint makes visible',
        params: PackageParams,
        querystring: VersionPreviewQuery,
        response: { 200: VersionPreviewSchema, ...ErrorResponses },
      },
    },
    async (req) => {
      const { row, versions, downloads } = await app.services.packages.detail(
        ctxOf(req),
        packageName(req.params.vendor, req.params.name),
      );
      const detail = presentPackageDetail(row, versions, downloads);
      const constraint = req.query.constraint.trim();
      return {
        name: row.name,
        constraint,
        ...previewConstraint(detail.versions, constraint),
        total_versions: detail.versions.length,
      };
    },
  );
}
