import { Type } from 'typebox';
import type { Static } from 'typebox';
import { IsoDateTime, Nullable, PageNumber } from '../../http/schemas.js';

/** Composer's package name rule, lower case only. */
export const PACKAGE_NAME_PATTERN =
  '^[a-z0-9]([_.-]?[a-z0-9]+)*/[a-z0-9](([_.]|-{1,2})?[a-z0-9]+)*$';
export const PACKAGE_NAME_RE = new RegExp(PACKAGE_NAME_PATTERN);

export const PACKAGE_TYPES = ['github', 'gitlab', 'bitbucket', 'git', 'artifact'] as const;
export type PackageType = (typeof PACKAGE_TYPES)[number];

export const VersionSchema = Type.Object({
  version: Type.String(),
  version_normalized: Type.String(),
  released_at: Nullable(IsoDateTime),
  downloads: Type.Integer(),
  yanked: Type.Boolean(),
  deprecated: Type.Boolean(),
  reference: Type.String(),
});
export type VersionDto = Static<typeof VersionSchema>;

const packageFields = {
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  repository_url: Type.String(),
  type: Type.String(),
  latest_version: Nullable(Type.String()),
  synced_at: Nullable(IsoDateTime),
  sync_status: Type.String(),
  sync_error: Nullable(Type.String()),
  created_at: IsoDateTime,
  abandoned: Type.Boolean(),
};

export const PackageSchema = Type.Object(packageFields, { $id: 'Package' });
export type PackageDto = Static<typeof PackageSchema>;

export const PackageDetailSchema = Type.Object({
  ...packageFields,
  versions: Type.Array(VersionSchema),
});
export type PackageDetailDto = Static<typeof PackageDetailSchema>;

/** Folder globs of a monorepo: relative, no `..` segment (checked again by the service). */
export const MONOREPO_PATH_PATTERN = '^(?![/\\\\])(?!(.*[/\\\\])?\\.\\.([/\\\\]|$))[^\\u0000]+$';

export const MonorepoInput = Type.Object(
  {
    paths: Type.Array(
      Type.String({ minLength: 1, maxLength: 200, pattern: MONOREPO_PATH_PATTERN }),
      { minItems: 1, maxItems: 20 },
    ),
  },
  { additionalProperties: false },
);

export const AddPackageBody = Type.Object(
  {
    name: Type.String({ pattern: PACKAGE_NAME_PATTERN, maxLength: 200 }),
    repository_url: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
    type: Type.Optional(
      Type.Union([
        Type.Literal('github'),
        Type.Literal('gitlab'),
        Type.Literal('bitbucket'),
        Type.Literal('git'),
        Type.Literal('artifact'),
      ]),
    ),
    monorepo: Type.Optional(MonorepoInput),
  },
  { additionalProperties: false },
);
export type AddPackageInput = Static<typeof AddPackageBody>;

export const PackageListQuery = Type.Object(
  {
    page: Type.Optional(PageNumber),
    per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    q: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);

export const VersionParams = Type.Object({
  vendor: Type.String({ minLength: 1, maxLength: 100 }),
  name: Type.String({ minLength: 1, maxLength: 100 }),
  version: Type.String({ minLength: 1, maxLength: 255 }),
});

export const ReadmeSchema = Type.Object({
  name: Type.String(),
  format: Type.Literal('markdown'),
  content: Nullable(Type.String()),
});

export const SkippedRefSchema = Type.Object({ ref: Type.String(), reason: Type.String() });

export const ValidationReportSchema = Type.Object({
  name: Type.String(),
  valid: Type.Boolean(),
  versions: Type.Array(
    Type.Object({
      version: Type.String(),
      version_normalized: Type.String(),
      reference: Type.String(),
    }),
  ),
  skipped: Type.Array(SkippedRefSchema),
  error: Nullable(Type.String()),
});
