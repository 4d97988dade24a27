import { Type } from 'typebox';
import type { Static } from 'typebox';
import { Nullable } from '../../http/schemas.js';

/** The inbound webhooks whose secret a tenant may set (docs/cloud.md). */
export const WEBHOOK_SECRET_NAMES = ['github', 'gitlab', 'bitbucket', 'stripe'] as const;
export type WebhookSecretName = (typeof WEBHOOK_SECRET_NAMES)[number];

const Secret = Type.String({ minLength: 1, maxLength: 1024 });
const IsSet = Type.Object({ set: Type.Boolean() });
const PortalTitle = Type.String({ minLength: 1, maxLength: 100 });
const AccentColor = Type.String({ pattern: '^#[0-9a-fA-F]{6}$' });

/** The customer portal's branding (docs/portal.md): null shows the defaults. */
export const PortalBrandingSchema = Type.Object({
  title: Nullable(Type.String()),
  accent_color: Nullable(Type.String()),
});
export type PortalBranding = Static<typeof PortalBrandingSchema>;

/** Who is e-mailed about what needs acting on (docs/notifications.md). */
export const MAX_NOTIFICATION_EMAILS = 20;
const NotificationEmails = Type.Array(Type.String({ format: 'email', maxLength: 254 }), {
  maxItems: MAX_NOTIFICATION_EMAILS,
});

/** `GET /api/v1/settings`: whether each secret is set, never the secret. */
export const SettingsSchema = Type.Object({
  notification_emails: Type.Array(Type.String()),
  webhook_secrets: Type.Object({
    github: IsSet,
    gitlab: IsSet,
    bitbucket: IsSet,
    stripe: IsSet,
  }),
  portal: PortalBrandingSchema,
});
export type SettingsDto = Static<typeof SettingsSchema>;

/** `PATCH /api/v1/settings`: merges; `null` clears a secret. */
export const UpdateSettingsBody = Type.Object(
  {
    notification_emails: Type.Optional(NotificationEmails),
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
    portal: Type.Optional(
      Type.Object(
        {
          title: Type.Optional(Nullable(PortalTitle)),
          accent_color: Type.Optional(Nullable(AccentColor)),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type UpdateSettingsInput = Static<typeof UpdateSettingsBody>;
