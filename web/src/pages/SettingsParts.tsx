import type { paths } from '../api/openapi';
import type { Ok } from '../api/types';
import { Field } from '../components/ui';
import { ApiError } from '../lib/errors';

export type Settings = Ok<'/api/v1/settings', 'get'>;
export type SettingsPatch = NonNullable<
  paths['/api/v1/settings']['patch']['requestBody']
>['content']['application/json'];
export type SecretName = keyof Settings['webhook_secrets'];

/** The inbound webhooks whose secret a registry may set, as people name them. */
export const SECRETS: readonly [SecretName, string][] = [
  ['github', 'GitHub'],
  ['gitlab', 'GitLab'],
  ['bitbucket', 'Bitbucket'],
  ['stripe', 'Stripe'],
];

/** The portal's accent when none is set (the shared styles' --accent). */
export const DEFAULT_ACCENT = '#2b5cab';
/** The portal's heading when no title is set (docs/portal.md). */
export const DEFAULT_TITLE = 'Packages';

/** The addresses of a one-per-line text, blank lines dropped. */
export const linesOf = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * What a VALIDATION_ERROR says about a list field, line by line: the API names an address by
 * its place in the list (`notification_emails.1`), a person by its line.
 */
export function listError(err: unknown, field: string): string | undefined {
  if (!(err instanceof ApiError)) return undefined;
  const found = err.details.flatMap((d) => {
    const message = d.message ?? 'is not valid';
    if (d.field === field) return [message];
    const index = d.field.startsWith(`${field}.`) ? Number(d.field.slice(field.length + 1)) : NaN;
    return Number.isInteger(index) ? [`line ${index + 1}: ${message}`] : [];
  });
  return found.length > 0 ? found.join('; ') : undefined;
}

/** The settings as they are, in words (what GET /api/v1/settings answers). */
export function CurrentSettings({ settings }: { settings: Settings }) {
  const { notification_emails: emails, portal, webhook_secrets: secrets } = settings;
  return (
    <section className="card" aria-labelledby="current-settings">
      <h2 id="current-settings">Current settings</h2>
      <dl className="facts">
        <dt>Notification e-mails</dt>
        <dd className="break">
          {emails.length > 0 ? (
            <ul className="plain">
              {emails.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          ) : (
            'none'
          )}
        </dd>
        <dt>Portal title</dt>
        <dd className="break">{portal.title ?? `default (${DEFAULT_TITLE})`}</dd>
        <dt>Portal accent colour</dt>
        <dd>
          {portal.accent_color ? (
            <>
              <span
                aria-hidden="true"
                className="badge"
                style={{ background: portal.accent_color, color: portal.accent_color }}
              >
                ■
              </span>{' '}
              <code>{portal.accent_color}</code>
            </>
          ) : (
            'default'
          )}
        </dd>
        <dt>Webhook secrets</dt>
        <dd>
          {SECRETS.map(
            ([name, label]) => `${label}: ${secrets[name].set ? 'set' : 'not set'}`,
          ).join(' · ')}
        </dd>
      </dl>
    </section>
  );
}

/** The accent colour as text (`#rrggbb`, empty for the default) with a colour picker beside it. */
export function ColourField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  const picked = /^#[0-9a-fA-F]{6}$/.test(value) ? value.toLowerCase() : DEFAULT_ACCENT;
  return (
    <Field label="Portal accent colour" hint="#rrggbb, or empty for the default" error={error}>
      {(id, describedBy) => (
        <div className="inline-form">
          <input
            type="color"
            aria-label="Colour picker"
            value={picked}
            onChange={(e) => onChange(e.target.value)}
            style={{ width: '3rem', padding: '0.1rem' }}
          />
          <input
            id={id}
            aria-describedby={describedBy}
            aria-invalid={error ? true : undefined}
            placeholder={DEFAULT_ACCENT}
            spellCheck={false}
            value={value}
            onChange={(e) => onChange(e.target.value)}
            style={{ flex: '1 1 8rem', width: 'auto' }}
          />
        </div>
      )}
    </Field>
  );
}
