import type { Ctx, Deps } from '../../context.js';
import type { Db } from '../../infra/db/connection.js';
import { SecretBoxError } from '../../infra/secret-box.js';
import type { SecretBox } from '../../infra/secret-box.js';
import { unauthorized } from '../../errors.js';
import { transact } from '../../unit-of-work.js';
import { WEBHOOK_SECRET_NAMES } from './schema.js';
import type {
  PortalBranding,
  SettingsDto,
  UpdateSettingsInput,
  WebhookSecretName,
} from './schema.js';
import { settingsBox } from './secret-key.js';
import { readRecipients, writeRecipients } from '../notifications/recipients.js';
import {
  deleteSetting,
  readSettingValue,
  readSettings,
  settingKeysSet,
  upsertSetting,
} from './store.js';

const keyOf = (name: WebhookSecretName) => `webhook_secret.${name}`;
/** The customer portal's branding, stored as plain values (nothing secret). */
const PORTAL_KEYS = { title: 'portal.title', accent_color: 'portal.accent_color' } as const;
type PortalField = keyof typeof PORTAL_KEYS;
/** Authenticated with each value, so a sealed secret copied to another tenant or key won't open. */
const contextOf = (tenantId: string, name: WebhookSecretName) =>
  `settings:${tenantId}:${keyOf(name)}`;

/**
 * Tenant settings (docs/cloud.md): per-tenant inbound webhook secrets, sealed at rest and never
 * shown back. Outside Cloud the environment's secrets are the defaults; in Cloud a webhook
 * without the tenant's own secret is not available.
 */
export class SettingsService {
  private box: Promise<SecretBox> | null = null;

  constructor(private readonly deps: Deps) {}

  async get(ctx: Ctx): Promise<SettingsDto> {
    const set = new Set(
      await settingKeysSet(
        this.deps.db,
        ctx.tenantId,
        WEBHOOK_SECRET_NAMES.map((n) => keyOf(n)),
      ),
    );
    return {
      webhook_secrets: {
        github: { set: set.has(keyOf('github')) },
        gitlab: { set: set.has(keyOf('gitlab')) },
        bitbucket: { set: set.has(keyOf('bitbucket')) },
        stripe: { set: set.has(keyOf('stripe')) },
      },
      notification_emails: await readRecipients(this.deps.db, ctx.tenantId),
      portal: await this.portalBranding(ctx.tenantId),
    };
  }

  /** The customer portal's title and accent colour (docs/portal.md); null where unset. */
  async portalBranding(tenantId: string): Promise<PortalBranding> {
    const rows = await readSettings(this.deps.db, tenantId, Object.values(PORTAL_KEYS));
    const value = (field: PortalField) =>
      rows.find((r) => r.key === PORTAL_KEYS[field])?.value ?? null;
    return { title: value('title'), accent_color: value('accent_color') };
  }

  async update(ctx: Ctx, input: UpdateSettingsInput): Promise<SettingsDto> {
    const secrets = input.webhook_secrets ?? {};
    const names = WEBHOOK_SECRET_NAMES.filter((n) => secrets[n] !== undefined);
    const box = names.some((n) => secrets[n] !== null) ? await this.openBox() : null;
    await transact(this.deps, ctx, async (tx) => {
      const changed: Record<string, 'set' | 'cleared'> = {};
      for (const name of names) {
        const secret = secrets[name];
        if (secret === null || secret === undefined) {
          await clear(tx.db, ctx.tenantId, name);
          changed[name] = 'cleared';
        } else {
          await store(
            tx.db,
            ctx.tenantId,
            name,
            box!.encrypt(secret, contextOf(ctx.tenantId, name)),
          );
          changed[name] = 'set';
        }
      }
      const portal = await savePortal(tx.db, ctx.tenantId, input.portal ?? {});
      const emails = input.notification_emails;
      if (emails !== undefined) await writeRecipients(tx.db, ctx.tenantId, emails);
      if (emails !== undefined || names.length > 0 || Object.keys(portal).length > 0) {
        await tx.audit({
          action: 'settings.update',
          target: { type: 'settings', id: ctx.tenantId },
          summary: {
            ...(names.length > 0 ? { webhook_secrets: changed } : {}),
            ...(emails !== undefined ? { notification_emails: emails.length } : {}),
            ...(Object.keys(portal).length > 0 ? { portal } : {}),
          },
        });
      }
    });
    return this.get(ctx);
  }

  /**
   * The secret an inbound webhook of `name` is checked with: the tenant's own, else (outside
   * Cloud) the environment's; null when neither is set.
   */
  async webhookSecret(tenantId: string, name: WebhookSecretName, fallback: string | null) {
    const value = await readSettingValue(this.deps.db, tenantId, keyOf(name));
    if (value !== undefined) {
      try {
        return (await this.openBox()).decrypt(value, contextOf(tenantId, name));
      } catch (err) {
        if (!(err instanceof SecretBoxError)) throw err;
        // Another ENCRYPTION_KEY, or an altered row: no delivery can be verified until it is set again.
        this.deps.log.error({ err, tenant: tenantId, secret: name }, 'webhook secret unreadable');
        throw unauthorized(`The ${name} webhook secret cannot be read: set it again in settings`);
      }
    }
    return this.deps.config.edition === 'cloud' ? null : fallback;
  }

  private openBox(): Promise<SecretBox> {
    this.box ??= settingsBox(this.deps).catch((err: unknown) => {
      this.box = null;
      throw err;
    });
    return this.box;
  }
}

async function store(db: Db, tenantId: string, name: WebhookSecretName, value: string) {
  await upsertSetting(db, tenantId, keyOf(name), value);
}

async function clear(db: Db, tenantId: string, name: WebhookSecretName) {
  await deleteSetting(db, tenantId, keyOf(name));
}

/** Sets (a value) or clears (null) the portal's branding fields given; returns what changed. */
async function savePortal(
  db: Db,
  tenantId: string,
  input: Partial<Record<PortalField, string | null>>,
): Promise<Partial<Record<PortalField, string | null>>> {
  const changed: Partial<Record<PortalField, string | null>> = {};
  for (const field of Object.keys(PORTAL_KEYS) as PortalField[]) {
    const value = input[field];
    if (value === undefined) continue;
    const key = PORTAL_KEYS[field];
    if (value === null) {
      await deleteSetting(db, tenantId, key);
    } else {
      const stored = field === 'accent_color' ? value.toLowerCase() : value;
      await upsertSetting(db, tenantId, key, stored);
    }
    changed[field] = value;
  }
  return changed;
}
