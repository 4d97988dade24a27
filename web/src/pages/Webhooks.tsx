import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, call } from '../api/client';
import type { CreatedWebhookEndpoint, WebhookEndpoint } from '../api/types';
import { PagedTable } from '../components/DataTable';
import type { Column } from '../components/DataTable';
import { CopyBlock, FormCard, PageTitle, ShownOnce, StatusBadge } from '../components/ui';
import { isFeatureMissing } from '../lib/errors';
import { formatTime } from '../lib/format';
import { canWrite, useSession } from '../lib/session';
import { EMPTY_DRAFT, EndpointFields } from './WebhooksForm';
import type { EndpointDraft } from './WebhooksForm';
import { hasWebhooks, WebhooksNotInEdition } from './WebhooksShared';

/** The path of an endpoint's page in the UI. */
export const endpointPath = (id: string) => `/webhooks/${encodeURIComponent(id)}`;

const COLUMNS: Column<WebhookEndpoint>[] = [
  {
    header: 'URL',
    className: 'break',
    cell: (e) => <Link to={endpointPath(e.id)}>{e.url}</Link>,
  },
  {
    header: 'Events',
    className: 'break',
    cell: (e) => <span className="small">{e.events.join(', ')}</span>,
  },
  {
    header: 'Active',
    cell: (e) => <StatusBadge status={e.active ? 'active' : 'inactive'} />,
  },
  { header: 'Description', className: 'break', cell: (e) => e.description ?? '' },
  { header: 'Created', cell: (e) => formatTime(e.created_at) },
];

function CreateEndpoint({ onCreated }: { onCreated: (e: CreatedWebhookEndpoint) => void }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<EndpointDraft>(EMPTY_DRAFT);
  const create = useMutation({
    mutationFn: () =>
      call(
        api.POST('/api/v1/webhook-endpoints', {
          body: {
            url: draft.url.trim(),
            events: draft.events,
            ...(draft.description.trim() ? { description: draft.description.trim() } : {}),
            ...(draft.secret ? { secret: draft.secret } : {}),
          },
        }),
      ),
    onSuccess: (created) => {
      setDraft(EMPTY_DRAFT);
      onCreated(created);
      return queryClient.invalidateQueries({ queryKey: ['webhook-endpoints'] });
    },
  });
  return (
    <FormCard title="New webhook endpoint" submit="Create endpoint" action={create}>
      <EndpointFields draft={draft} onChange={setDraft} error={create.error} />
    </FormCard>
  );
}

function EndpointList() {
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: ['webhook-endpoints', page],
    placeholderData: keepPreviousData,
    // Read afresh on every visit: endpoints are also made over the API and GraphQL.
    staleTime: 0,
    queryFn: () =>
      call(api.GET('/api/v1/webhook-endpoints', { params: { query: { page, per_page: 25 } } })),
  });
  if (isFeatureMissing(list.error)) return <WebhooksNotInEdition />;
  return (
    <PagedTable
      caption="Webhook endpoints"
      what="webhook endpoints"
      list={list}
      columns={COLUMNS}
      rowKey={(e) => e.id}
      empty="No webhook endpoints yet."
      onPage={setPage}
    />
  );
}

/**
 * Webhooks (docs/admin-ui.md, docs/webhooks-outgoing.md): the endpoints Packyard POSTs its events
 * to; create one (its secret shown once). Pro and above.
 */
export function WebhooksPage() {
  const session = useSession();
  const [created, setCreated] = useState<CreatedWebhookEndpoint | null>(null);
  const available = hasWebhooks(session);
  return (
    <>
      <PageTitle>Webhooks</PageTitle>
      {!available && <WebhooksNotInEdition />}
      {available && (
        <p className="muted">
          Packyard sends each event an endpoint subscribes to as a signed POST (header{' '}
          <code>Packyard-Signature</code>), retrying failures for a while. Open an endpoint to see
          its deliveries, redeliver one or send a ping. Every event is also in the{' '}
          <Link to="/events">event feed</Link>.
        </p>
      )}
      {created && (
        <ShownOnce
          title="Endpoint created: copy its signing secret now"
          note="Packyard signs every delivery to this endpoint with this secret. It is shown only once; later the endpoint only says that a secret is set."
          onDone={() => setCreated(null)}
        >
          <CopyBlock label="Signing secret" text={created.secret} />
          <p className="break">
            <Link to={endpointPath(created.id)}>Open the endpoint {created.url}</Link>
          </p>
        </ShownOnce>
      )}
      {available && canWrite(session) && <CreateEndpoint onCreated={setCreated} />}
      {available && <EndpointList />}
    </>
  );
}
