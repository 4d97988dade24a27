import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { deliveriesPollInterval } from './WebhooksDeliveries';
import { eventSubject } from './WebhooksEvents';
import { DeliveryStatus, EVENT_TYPES, EventPicker, hasWebhooks } from './WebhooksShared';

const NOW = Date.parse('2026-11-27T16:00:00Z');
const at = (seconds: number) => new Date(NOW + seconds * 1000).toISOString();

describe('the Webhooks pages’ logic', () => {
  it('re-reads deliveries every second while one is being sent or was just asked for', () => {
    const done = [{ status: 'succeeded' as const, next_attempt_at: null }];
    expect(deliveriesPollInterval(done, 0, NOW)).toBe(5000);
    expect(deliveriesPollInterval(done, NOW + 10_000, NOW)).toBe(1000);
    expect(deliveriesPollInterval(undefined, 0, NOW)).toBe(5000);
    // Being sent now (no next attempt, or one already due)...
    expect(deliveriesPollInterval([{ status: 'pending', next_attempt_at: null }], 0, NOW)).toBe(
      1000,
    );
    expect(deliveriesPollInterval([{ status: 'pending', next_attempt_at: at(-5) }], 0, NOW)).toBe(
      1000,
    );
    // ...but a retry half an hour away is not polled for every second.
    expect(deliveriesPollInterval([{ status: 'pending', next_attempt_at: at(1800) }], 0, NOW)).toBe(
      5000,
    );
  });

  it('says what an event is about from its data', () => {
    expect(eventSubject({ package: 'acme/lib', version: '1.2.0' })).toBe('acme/lib 1.2.0');
    expect(eventSubject({ customer_id: 'cus_1', token_id: 'tok_1' })).toBe('cus_1');
    expect(eventSubject({ upstream_url: 'https://repo.packagist.org' })).toBe(
      'https://repo.packagist.org',
    );
    expect(eventSubject({})).toBe('');
    expect(eventSubject(null)).toBe('');
  });

  it('knows the edition has webhooks from the license features', () => {
    expect(hasWebhooks({ features: ['graphql', 'outgoing_webhooks'] })).toBe(true);
    expect(hasWebhooks({ features: [] })).toBe(false);
  });

  it('offers every event type of the contract as a labelled checkbox', () => {
    expect(EVENT_TYPES).toHaveLength(19);
    const html = renderToStaticMarkup(
      <EventPicker value={['package.created']} onChange={() => undefined} error="is required" />,
    );
    expect(html).toContain('<legend>Events</legend>');
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('1 of 19 chosen');
    expect(html.match(/type="checkbox"/g)).toHaveLength(19);
    expect(html.match(/checked=""/g)).toHaveLength(1);
  });

  it('shows a delivery’s status in words, succeeded in the colour of done', () => {
    expect(renderToStaticMarkup(<DeliveryStatus status="succeeded" />)).toBe(
      '<span class="badge badge-done">succeeded</span>',
    );
    expect(renderToStaticMarkup(<DeliveryStatus status="failed" />)).toBe(
      '<span class="badge badge-failed">failed</span>',
    );
  });
});
