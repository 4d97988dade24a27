import { TextField } from '../components/ui';
import { fieldError } from '../lib/errors';
import { EventPicker } from './WebhooksShared';
import type { EventType } from './WebhooksShared';

/** What the endpoint form edits, as typed (trimmed when sent). */
export interface EndpointDraft {
  url: string;
  events: EventType[];
  description: string;
  secret: string;
}

export const EMPTY_DRAFT: EndpointDraft = { url: '', events: [], description: '', secret: '' };

/**
 * An endpoint's fields (URL, description, secret, events), each with the API's error on it. A new
 * endpoint's secret is optional (generated when empty); an existing one's is a replacement.
 */
export function EndpointFields({
  draft,
  onChange,
  error,
  existing = false,
}: {
  draft: EndpointDraft;
  onChange: (draft: EndpointDraft) => void;
  /** The last save's error, whose field errors show under their fields. */
  error: unknown;
  /** Editing an endpoint that exists (its secret is set) rather than creating one. */
  existing?: boolean;
}) {
  const set = (field: keyof EndpointDraft) => (value: string) =>
    onChange({ ...draft, [field]: value });
  return (
    <>
      <div className="row">
        <TextField
          label="URL"
          type="url"
          {...(existing
            ? {}
            : {
                hint: 'http(s) address that receives a POST per event',
                placeholder: 'https://ci.example.com/packyard',
              })}
          value={draft.url}
          onChange={set('url')}
          error={fieldError(error, 'url')}
        />
        <TextField
          label="Description"
          value={draft.description}
          onChange={set('description')}
          error={fieldError(error, 'description')}
        />
        <TextField
          label={existing ? 'New secret' : 'Secret'}
          hint={
            existing
              ? 'leave empty to keep the current one'
              : 'optional: leave empty to have one generated (whsec_…)'
          }
          autoComplete="off"
          spellCheck={false}
          value={draft.secret}
          onChange={set('secret')}
          error={fieldError(error, 'secret')}
        />
      </div>
      <EventPicker
        value={draft.events}
        onChange={(events) => onChange({ ...draft, events })}
        error={fieldError(error, 'events')}
      />
    </>
  );
}
