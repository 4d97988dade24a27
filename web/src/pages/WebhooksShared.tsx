import { useId } from 'react';
// The event types an endpoint may subscribe to (docs/webhooks-outgoing.md) are the server's own
// list: a module of plain values the UI's build bundles (nothing else of the server comes with it).
import { EVENT_TYPES } from '../../../src/areas/events/event-types';
import type { EventType } from '../../../src/areas/events/event-types';
import { hasFeature } from '../lib/session';
import type { Session } from '../lib/session';

/**
 * Every event type, as the event picker and the feed's filter offer them. A `ping` is sent by the
 * Ping button to one endpoint alone, whatever it subscribes to, so it is not among them.
 */
export { EVENT_TYPES };
export type { EventType };

/** Whether a string read from the API is one of the types above. */
export const isEventType = (t: string): t is EventType =>
  (EVENT_TYPES as readonly string[]).includes(t);

/** The edition feature of outgoing webhooks and the event feed (the license's `features`). */
export const WEBHOOKS_FEATURE = 'outgoing_webhooks';

/**
 * Whether this server's edition has webhooks and the event feed. Known from the license the
 * UI loads at sign-in, so an edition without them is told so without a refused request.
 */
export const hasWebhooks = (session: Pick<Session, 'features'>): boolean =>
  hasFeature(session, WEBHOOKS_FEATURE);

/** The edition lacks the feature (Community): say so instead of failing. */
export function WebhooksNotInEdition() {
  return (
    <div className="empty card">
      <h2>Not available in this edition</h2>
      <p>
        Outgoing webhooks and the event feed come with Packyard Pro and above, so they are not
        available on this server. With them, your own systems receive a signed POST when a package,
        version, customer, token or grant changes, and can read every change from the event feed.
      </p>
    </div>
  );
}

/** A delivery's state as a badge that says it in words. */
export function DeliveryStatus({ status }: { status: string }) {
  const tone = status === 'succeeded' ? 'done' : status;
  return <span className={`badge badge-${tone}`}>{status}</span>;
}

/** The event types to send, as checkboxes (a labelled group), with all/none shortcuts. */
export function EventPicker({
  value,
  onChange,
  error,
}: {
  value: readonly EventType[];
  onChange: (events: EventType[]) => void;
  error?: string;
}) {
  const errorId = useId();
  const toggle = (type: EventType, on: boolean) =>
    onChange(EVENT_TYPES.filter((t) => (t === type ? on : value.includes(t))));
  return (
    <fieldset
      className="checks"
      aria-describedby={error ? errorId : undefined}
      aria-invalid={error ? true : undefined}
    >
      <legend>Events</legend>
      <div className="actions">
        <button type="button" className="secondary" onClick={() => onChange([...EVENT_TYPES])}>
          All events
        </button>
        <button type="button" className="secondary" onClick={() => onChange([])}>
          No events
        </button>
        <span className="muted small" aria-live="polite">
          {value.length} of {EVENT_TYPES.length} chosen
        </span>
      </div>
      <ul>
        {EVENT_TYPES.map((type) => (
          <li key={type}>
            <label>
              <input
                type="checkbox"
                checked={value.includes(type)}
                onChange={(e) => toggle(type, e.target.checked)}
              />{' '}
              <code>{type}</code>
            </label>
          </li>
        ))}
      </ul>
      {error && (
        <small id={errorId} className="error">
          {error}
        </small>
      )}
    </fieldset>
  );
}
