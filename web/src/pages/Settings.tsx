import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../api/client';
import { ErrorNote, Field, FormCard, Loading, PageTitle, TextField } from '../components/ui';
import { fieldError } from '../lib/errors';
import { canWrite, useSession } from '../lib/session';
import { ColourField, CurrentSettings, linesOf, listError, SECRETS } from './SettingsParts';
import type { SecretName, Settings, SettingsPatch } from './SettingsParts';

type Secrets = Partial<Record<SecretName, string>>;
type Cleared = Partial<Record<SecretName, boolean>>;

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

/** Only what differs from the settings as they are, so the audit log names real changes. */
function patchOf(
  current: Settings,
  draft: { emails: string; title: string; accent: string; secrets: Secrets; cleared: Cleared },
): SettingsPatch {
  const emails = linesOf(draft.emails);
  const title = draft.title.trim() || null;
  const accent = draft.accent.trim().toLowerCase() || null;
  const portal = {
    ...(title !== current.portal.title ? { title } : {}),
    ...(accent !== current.portal.accent_color ? { accent_color: accent } : {}),
  };
  const secrets: Record<string, string | null> = {};
  for (const [name] of SECRETS) {
    const value = draft.secrets[name] ?? '';
    if (value) secrets[name] = value;
    else if (draft.cleared[name]) secrets[name] = null;
  }
  return {
    ...(same(emails, current.notification_emails) ? {} : { notification_emails: emails }),
    ...(Object.keys(portal).length > 0 ? { portal } : {}),
    ...(Object.keys(secrets).length > 0 ? { webhook_secrets: secrets } : {}),
  };
}

function SettingsForm({ current }: { current: Settings }) {
  const queryClient = useQueryClient();
  const [emails, setEmails] = useState(current.notification_emails.join('\n'));
  const [title, setTitle] = useState(current.portal.title ?? '');
  const [accent, setAccent] = useState(current.portal.accent_color ?? '');
  const [secrets, setSecrets] = useState<Secrets>({});
  const [cleared, setCleared] = useState<Cleared>({});
  const save = useMutation({
    mutationFn: () =>
      call(
        api.PATCH('/api/v1/settings', {
          body: patchOf(current, { emails, title, accent, secrets, cleared }),
        }),
      ),
    onSuccess: (saved) => {
      queryClient.setQueryData(['settings'], saved);
      setEmails(saved.notification_emails.join('\n'));
      setSecrets({});
      setCleared({});
    },
  });
  const err = save.error;
  return (
    <FormCard title="Change settings" submit="Save" action={save}>
      <Field
        label="Notification e-mails"
        hint="one address per line, at most 20; e-mailed about what needs acting on when the server sends mail (SMTP_URL)"
        error={listError(err, 'notification_emails')}
      >
        {(id, describedBy) => (
          <textarea
            id={id}
            rows={4}
            spellCheck={false}
            autoComplete="off"
            aria-describedby={describedBy}
            aria-invalid={listError(err, 'notification_emails') ? true : undefined}
            value={emails}
            onChange={(e) => setEmails(e.target.value)}
          />
        )}
      </Field>
      <div className="row">
        <TextField
          label="Portal title"
          hint="the customer portal's heading; empty for the default"
          maxLength={100}
          value={title}
          onChange={setTitle}
          error={fieldError(err, 'portal.title')}
        />
        <ColourField
          value={accent}
          onChange={setAccent}
          error={fieldError(err, 'portal.accent_color')}
        />
      </div>
      <fieldset className="checks">
        <legend>Inbound webhook secrets</legend>
        <p className="muted small">
          Checked on the deliveries of each host (never shown back). Leave a field empty to keep the
          secret as it is; without one, the server&apos;s own setting applies (not in Cloud).
        </p>
        <div className="row">
          {SECRETS.map(([name, label]) => (
            <Field
              key={name}
              label={`${label} webhook secret`}
              hint={current.webhook_secrets[name].set ? 'set: a new value replaces it' : 'not set'}
              error={fieldError(err, `webhook_secrets.${name}`)}
            >
              {(id, describedBy) => (
                <>
                  <input
                    id={id}
                    type="password"
                    autoComplete="off"
                    aria-describedby={describedBy}
                    aria-invalid={fieldError(err, `webhook_secrets.${name}`) ? true : undefined}
                    value={secrets[name] ?? ''}
                    onChange={(e) => setSecrets({ ...secrets, [name]: e.target.value })}
                  />
                  {current.webhook_secrets[name].set && (
                    <label className="small">
                      <input
                        type="checkbox"
                        checked={cleared[name] ?? false}
                        onChange={(e) => setCleared({ ...cleared, [name]: e.target.checked })}
                      />{' '}
                      Clear the {label} secret
                    </label>
                  )}
                </>
              )}
            </Field>
          ))}
        </div>
      </fieldset>
      {save.isSuccess && (
        <p role="status" className="muted">
          Settings saved.
        </p>
      )}
    </FormCard>
  );
}

/**
 * Settings (docs/admin-ui.md): who is e-mailed, the customer portal's branding and the inbound
 * webhook secrets, as GET /api/v1/settings answers them; owners and admins change them.
 */
export function SettingsPage() {
  const session = useSession();
  const settings = useQuery({
    queryKey: ['settings'],
    staleTime: 0,
    queryFn: () => call(api.GET('/api/v1/settings')),
  });
  return (
    <>
      <PageTitle>Settings</PageTitle>
      <p className="muted">
        The registry&apos;s own settings: who is e-mailed when something needs acting on, how the
        customer portal (<a href="/portal/">/portal</a>) looks, and the secrets inbound webhooks are
        checked with.
      </p>
      {settings.isPending && <Loading what="settings" />}
      <ErrorNote error={settings.error} />
      {settings.data && <CurrentSettings settings={settings.data} />}
      {settings.data && canWrite(session) && <SettingsForm current={settings.data} />}
    </>
  );
}
