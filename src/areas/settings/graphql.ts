import type { GraphqlPart } from '../../graphql/kit.js';
import { mutation, query } from '../../graphql/kit.js';
import { validateInput } from '../../validation.js';
import { UpdateSettingsBody } from './schema.js';
import type { SettingsDto, WebhookSecretName } from './schema.js';

type Clearable = string | null | undefined;

interface SettingsInput {
  notificationEmails?: string[] | null;
  webhookSecrets?: Partial<Record<WebhookSecretName, Clearable>> | null;
  portal?: { title?: Clearable; accentColor?: Clearable } | null;
}

/** A field given (a value or an explicit null) stays; one left out stays out, as in a JSON body. */
const given = <K extends string>(key: K, value: unknown) =>
  value === undefined ? {} : ({ [key]: value } as Record<K, unknown>);

/**
 * GraphQL's input as the REST body, checked by the same schema; a null list or group means
 * "leave as is" (null inside a group clears that value, as in REST).
 */
function restBody(input: SettingsInput): unknown {
  const { notificationEmails, webhookSecrets, portal } = input;
  return {
    ...given('notification_emails', notificationEmails ?? undefined),
    ...given('webhook_secrets', webhookSecrets ?? undefined),
    ...(portal
      ? {
          portal: {
            ...given('title', portal.title),
            ...given('accent_color', portal.accentColor),
          },
        }
      : {}),
  };
}

const settingsOf = (dto: SettingsDto) => ({
  notificationEmails: dto.notification_emails,
  webhookSecrets: dto.webhook_secrets,
  portal: { title: dto.portal.title, accentColor: dto.portal.accent_color },
});

/** Tenant settings (docs/graphql.md): the REST settings' fields in camelCase, one service. */
export const settingsGraphql: GraphqlPart = {
  typeDefs: /* GraphQL */ `
    type SecretSet {
      set: Boolean!
    }

    "Whether each inbound webhook's secret is set; a secret is never shown."
    type WebhookSecrets {
      github: SecretSet!
      gitlab: SecretSet!
      bitbucket: SecretSet!
      stripe: SecretSet!
    }

    "The customer portal's branding; null shows the defaults."
    type PortalBranding {
      title: String
      "#rrggbb"
      accentColor: String
    }

    type Settings {
      "Who is e-mailed when SMTP_URL is set."
      notificationEmails: [String!]!
      webhookSecrets: WebhookSecrets!
      portal: PortalBranding!
    }

    "A secret to set, or null to clear it; one left out stays."
    input WebhookSecretsInput {
      github: String
      gitlab: String
      bitbucket: String
      stripe: String
    }

    "A value to set, or null for the default; one left out stays."
    input PortalBrandingInput {
      title: String
      accentColor: String
    }

    input UpdateSettingsInput {
      "Replaces the list (at most 20 addresses)."
      notificationEmails: [String!]
      webhookSecrets: WebhookSecretsInput
      portal: PortalBrandingInput
    }

    extend type Query {
      settings: Settings!
    }

    extend type Mutation {
      updateSettings(input: UpdateSettingsInput!): Settings!
    }
  `,

  Query: {
    settings: query(async (_args, ctx, s) => settingsOf(await s.settings.get(ctx))),
  },

  Mutation: {
    updateSettings: mutation<{ input: SettingsInput }>(async ({ input }, ctx, s) => {
      const body = validateInput(UpdateSettingsBody, restBody(input));
      return settingsOf(await s.settings.update(ctx, body));
    }),
  },
};
