import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { deliveriesPollInterval } from './WebhooksDeliveries';
import { MemoryRouter } from 'react-router';
import { EventSubject, eventSubject } from './WebhooksEvents';
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

  it('links an event’s package and customer, but not those a deletion removed', () => {
    const html = (type: string, data: Record<string, unknown>) =>
      renderToStaticMarkup(
        <MemoryRouter>
          <EventSubject event={{ id: 'evt_1', type, created_at: '', data }} />
        </MemoryRouter>,
      ).replace(/ data-discover="true"/g, '');
    expect(html('version.published', { package: 'acme/lib', version: '1.0.0' })).toBe(
      '<a href="/packages/acme/lib">acme/lib</a> 1.0.0',
    );
    expect(
      html('access.granted', { customer_id: 'c1', package: 'acme/lib', constraint: '^1' }),
    ).toBe('<a href="/packages/acme/lib">acme/lib</a> <a href="/customers/c1">c1</a>');
    expect(html('package.deleted', { package: 'acme/lib' })).toBe('acme/lib');
    expect(html('proxy.upstream_unreachable', { upstream_url: 'https://x.test' })).toBe(
      'https://x.test',
    );
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
