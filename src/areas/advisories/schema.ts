import { Type } from 'typebox';
import type { Static } from 'typebox';
import { IsoDateTime, Nullable, PageNumber } from '../../http/schemas.js';

const Severity = Type.Union([
  Type.Literal('low'),
  Type.Literal('medium'),
  Type.Literal('high'),
  Type.Literal('critical'),
]);
const PackageName = Type.String({ minLength: 3, maxLength: 255 });
const Title = Type.String({ minLength: 1, maxLength: 500 });
const Constraint = Type.String({ minLength: 1, maxLength: 1000 });
const Description = Type.String({ maxLength: 20_000 });
const Cve = Type.String({ pattern: '^CVE-[0-9]{4}-[0-9]{4,}$' });
const Link = Type.String({ maxLength: 2000, pattern: '^https?://' });

/** A vendor advisory as the admin API answers it (docs/advisories.md). */
export const AdvisorySchema = Type.Object({
  id: Type.String(),
  advisory_id: Type.String(),
  package: Type.String(),
  title: Type.String(),
  severity: Nullable(Severity),
  affected_versions: Type.String(),
  description: Nullable(Type.String()),
  cve: Nullable(Type.String()),
  link: Nullable(Type.String()),
  reported_at: IsoDateTime,
  source: Type.String(),
});
export type AdvisoryDto = Static<typeof AdvisorySchema>;

export const CreateAdvisoryBody = Type.Object(
  {
    package: PackageName,
    title: Title,
    severity: Type.Optional(Nullable(Severity)),
    affected_versions: Constraint,
    description: Type.Optional(Nullable(Description)),
    cve: Type.Optional(Nullable(Cve)),
    link: Type.Optional(Nullable(Link)),
  },
  { additionalProperties: false },
);
export type CreateAdvisoryInput = Static<typeof CreateAdvisoryBody>;

export const UpdateAdvisoryBody = Type.Object(
  {
    title: Type.Optional(Title),
    severity: Type.Optional(Nullable(Severity)),
    affected_versions: Type.Optional(Constraint),
    description: Type.Optional(Nullable(Description)),
    cve: Type.Optional(Nullable(Cve)),
    link: Type.Optional(Nullable(Link)),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateAdvisoryInput = Static<typeof UpdateAdvisoryBody>;

const SourceRef = Type.Object({ name: Type.String(), remote_id: Type.String() });

/** An item of GET /api/v1/vulnerabilities (docs/advisories.md). */
export const VulnerabilitySchema = Type.Object({
  id: Type.String(),
  advisory_id: Type.String(),
  package: Type.String(),
  title: Type.String(),
  severity: Nullable(Severity),
  cve: Nullable(Type.String()),
  link: Nullable(Type.String()),
  description: Nullable(Type.String()),
  affected_versions: Type.String(),
  patched_versions: Type.Array(Type.String()),
  affected_registry_versions: Type.Array(Type.String()),
  sources: Type.Array(SourceRef),
  reported_at: IsoDateTime,
  detected_at: IsoDateTime,
  affected_customer_count: Type.Integer(),
});
export type VulnerabilityDto = Static<typeof VulnerabilitySchema>;

export const VulnerabilityDetailSchema = Type.Intersect([
  VulnerabilitySchema,
  Type.Object({
    affected_customers: Type.Array(
      Type.Object({
        customer_id: Type.String(),
        name: Type.String(),
        versions: Type.Array(Type.String()),
      }),
    ),
  }),
]);

export const VulnerabilityListQuery = Type.Object(
  {
    package: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    severity: Type.Optional(Severity),
    page: Type.Optional(PageNumber),
    per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  { additionalProperties: false },
);
export type VulnerabilityFilter = Static<typeof VulnerabilityListQuery>;
