import { Type } from 'typebox';
import type { Static } from 'typebox';
import { IsoDateTime, Nullable } from '../../http/schemas.js';

export const HostAppStatusSchema = Type.Object({
  configured: Type.Boolean(),
  app_id: Nullable(Type.String()),
  app_slug: Nullable(Type.String()),
  install_url: Nullable(Type.String()),
});
export type HostAppStatusDto = Static<typeof HostAppStatusSchema>;

export const InstallUrlSchema = Type.Object({ url: Type.String() });

export const InstallationSchema = Type.Object({
  id: Type.String(),
  host_installation_id: Type.Integer(),
  account_login: Type.String(),
  account_type: Type.String(),
  repository_selection: Type.String(),
  status: Type.String(),
  repositories_count: Type.Integer(),
  claimed_at: Nullable(IsoDateTime),
  created_at: IsoDateTime,
  updated_at: IsoDateTime,
});
export type InstallationDto = Static<typeof InstallationSchema>;

/** GitHub's numeric installation id, as a number or a string of digits. */
export const ClaimBody = Type.Object(
  {
    installation_id: Type.Union([
      Type.Integer({ minimum: 1 }),
      Type.String({ pattern: '^[0-9]{1,20}$' }),
    ]),
    /** The App's user authorization code: proof that the claimer manages the installation. */
    code: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
  },
  { additionalProperties: false },
);

export const ClaimLinkSchema = Type.Object({
  url: Type.String(),
  state: Type.String(),
  expires_at: Type.String(),
});

export const SetupQuery = Type.Object({
  installation_id: Type.Optional(Type.String({ pattern: '^[0-9]{1,20}$' })),
  setup_action: Type.Optional(Type.String({ maxLength: 64 })),
  code: Type.Optional(Type.String({ maxLength: 512 })),
  state: Type.Optional(Type.String({ maxLength: 512 })),
});
export type ClaimInput = Static<typeof ClaimBody>;

export const RepositorySchema = Type.Object({
  full_name: Type.String(),
  clone_url: Type.String(),
  private: Type.Boolean(),
  default_branch: Nullable(Type.String()),
  /** The Packyard package using this repository, or null. */
  package: Nullable(Type.String()),
});
export type RepositoryDto = Static<typeof RepositorySchema>;
