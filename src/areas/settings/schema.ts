import { Type } from 'typebox';
import type { Static } from 'typebox';
import { Nullable } from '../../http/schemas.js';

/** The inbound webhooks whose secret a tenant may set (docs/cloud.md). */
export const WEBHOOK_SECRET_NAMES = ['github', 'gitlab', 'bitbucket', 'stripe'] as const;
export type WebhookSecretName = (typeof WEBHOOK_SECRET_NAMES)[number];

const Secret = Type.String({ minLength: 1, maxLength: 1024 });
const IsSet = Type.Object({ set: Type.Boolean() });

/** `GET /api/v1/settings`: whether each secret is set, never the secret. */
export const SettingsSchema = Type.Object({
  webhook_secrets: Type.Object({
    github: IsSet,
    gitlab: IsSet,
    bitbucket: IsSet,
    stripe: IsSet,
  }),
});
export type SettingsDto = Static<typeof SettingsSchema>;

/** `PATCH /api/v1/settings`: merges; `null` clears a secret. */
export const UpdateSettingsBody = Type.Object(
  {
    webhook_secrets: Type.Optional(
      Type.Object(
        {
          github: Type.Optional(Nullable(Secret)),
          gitlab: Type.Optional(Nullable(Secret)),
          bitbucket: Type.Optional(Nullable(Secret)),
          stripe: Type.Optional(Nullable(Secret)),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type UpdateSettingsInput = Static<typeof UpdateSettingsBody>;
