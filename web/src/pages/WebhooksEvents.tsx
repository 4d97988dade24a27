import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, call } from '../api/client';
import type { FeedEvent } from '../api/types';
import { DataTable } from '../components/DataTable';
import type { Column } from '../components/DataTable';
import { ErrorNote, Loading, PageTitle, SelectField } from '../components/ui';
import { isFeatureMissing } from '../lib/errors';
import { formatTime } from '../lib/format';
import { useSession } from '../lib/session';
import { EVENT_TYPES, hasWebhooks, WebhooksNotInEdition } from './WebhooksShared';

const PAGE_SIZE = 50;

/** What an event is about, in a few words: its package, customer or upstream. */
export function eventSubject(data: unknown): string {
  const d = (data ?? {}) as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of ['package', 'version', 'customer_id', 'upstream_url', 'metric']) {
    const v = d[key];
    if (typeof v === 'string' && v) parts.push(v);
  }
  return parts.join(' ');
}

/** The subject with its package and customer linked to their pages (while they exist). */
export function EventSubject({ event }: { event: FeedEvent }) {
  const d = (event.data ?? {}) as Record<string, unknown>;
  const gone = event.type.endsWith('.deleted');
  const pkg = typeof d.package === 'string' ? d.package : '';
  const customer = typeof d.customer_id === 'string' ? d.customer_id : '';
  if (gone || (!pkg && !customer)) return <>{eventSubject(event.data)}</>;
  const rest = eventSubject({ ...d, package: undefined, customer_id: undefined });
  return (
    <>
      {pkg && <Link to={`/packages/${pkg}`}>{pkg}</Link>}
      {pkg && customer && ' '}
      {customer && <Link to={`/customers/${encodeURIComponent(customer)}`}>{customer}</Link>}
      {rest && ` ${rest}`}
    </>
  );
}

const COLUMNS: Column<FeedEvent>[] = [
  { header: 'Time', cell: (e) => formatTime(e.created_at) },
  { header: 'Type', cell: (e) => <code>{e.type}</code> },
  { header: 'Subject', className: 'break', cell: (e) => <EventSubject event={e} /> },
  {
    header: 'Data',
    className: 'break',
    cell: (e) => <code className="small">{JSON.stringify(e.data)}</code>,
  },
  { header: 'ID', className: 'break', cell: (e) => <span className="muted small">{e.id}</span> },
];

function Feed() {
  const [type, setType] = useState<(typeof EVENT_TYPES)[number] | ''>('');
  // The `after` of each page read so far: the feed pages forward by cursor, oldest first.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const after = cursors[cursors.length - 1];
  const feed = useQuery({
    queryKey: ['events', type, after],
    placeholderData: keepPreviousData,
    staleTime: 0,
    queryFn: () =>
      call(
        api.GET('/api/v1/events', {
          params: { query: { after, type: type || undefined, limit: PAGE_SIZE } },
        }),
      ),
  });
  if (isFeatureMissing(feed.error)) return <WebhooksNotInEdition />;
  const rows = feed.data?.data ?? [];
  const more = rows.length === PAGE_SIZE && feed.data?.next !== after;
  const pageNo = cursors.length;
  return (
    <>
      <form
        className="inline-form"
        role="search"
        aria-label="Filter events"
        onSubmit={(e) => e.preventDefault()}
      >
        <SelectField
          label="Type"
          blank="Any type"
          value={type}
          options={EVENT_TYPES}
          onChange={(t) => {
            setType(t);
            setCursors([undefined]);
          }}
        />
      </form>
      <ErrorNote error={feed.error} />
      {feed.isPending ? (
        <Loading what="events" />
      ) : (
        <DataTable
          caption="Events"
          rows={rows}
          columns={COLUMNS}
          rowKey={(e) => e.id}
          empty={pageNo > 1 ? 'No newer events.' : `No events${type ? ` of type ${type}` : ''}.`}
        />
      )}
      <nav className="pager" aria-label="Events pages">
        <button
          type="button"
          disabled={pageNo <= 1}
          onClick={() => setCursors((c) => c.slice(0, -1))}
        >
          Older events
        </button>
        <span aria-live="polite">
          Page {pageNo} · {rows.length} shown
        </span>
        <button
          type="button"
          disabled={!more || !feed.data}
          onClick={() => feed.data && setCursors((c) => [...c, feed.data.next ?? undefined])}
        >
          Newer events
        </button>
      </nav>
    </>
  );
}

/** Events (docs/webhooks-outgoing.md): every change as the feed keeps it, oldest first. */
export function EventsPage() {
  const session = useSession();
  const available = hasWebhooks(session);
  return (
    <>
      <PageTitle>Events</PageTitle>
      {!available && <WebhooksNotInEdition />}
      {available && (
        <p className="muted">
          Every change the registry made, oldest first, as webhook endpoints receive them (kept for
          30 days by default).
        </p>
      )}
      {available && <Feed />}
    </>
  );
}
