import type { App } from '../../http/app-types.js';
import { ctxOf } from '../../http/auth.js';
import { ErrorResponses } from '../../http/schemas.js';
import { SettingsSchema, UpdateSettingsBody } from './schema.js';

const tags = ['settings'];

/** Tenant settings: every admin level reads them; owners and admins change them (auth/policy.ts). */
export async function settingsRoutes(app: App): Promise<void> {
  const settings = app.services.settings;

  app.get(
    '/settings',
    {
      schema: {
        tags,
        summary: 'Which webhook secrets are set (never the secrets)',
        response: { 200: SettingsSchema, ...ErrorResponses },
      },
    },
    async (req) => settings.get(ctxOf(req)),
  );

  app.patch(
    '/settings',
    {
      schema: {
        tags,
        summary: 'Set (a string) or clear (null) webhook secrets; the others stay',
        body: UpdateSettingsBody,
        response: { 200: SettingsSchema, ...ErrorResponses },
      },
    },
    async (req) => settings.update(ctxOf(req), req.body),
  );
}
