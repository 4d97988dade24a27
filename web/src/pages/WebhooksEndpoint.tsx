import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { api, call } from '../api/client';
import type { WebhookEndpoint } from '../api/types';
import { ErrorNote, FormCard, Loading, PageTitle, StatusBadge } from '../components/ui';
import { formatTime } from '../lib/format';
import { canWrite, useSession } from '../lib/session';
import { Deliveries, WATCH_MS } from './WebhooksDeliveries';
import { EndpointFields } from './WebhooksForm';
import type { EndpointDraft } from './WebhooksForm';
import { hasWebhooks, isEventType, WebhooksNotInEdition } from './WebhooksShared';
import type { EventType } from './WebhooksShared';

type Patch = {
  url?: string;
  events?: EventType[];
  description?: string | null;
  active?: boolean;
  secret?: string;
};

function usePatch(endpoint: WebhookEndpoint, onDone?: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Patch) =>
      call(
        api.PATCH('/api/v1/webhook-endpoints/{id}', {
          params: { path: { id: endpoint.id } },
          body,
        }),
      ),
    onSuccess: (saved) => {
      queryClient.setQueryData(['webhook-endpoint', endpoint.id], saved);
      void queryClient.invalidateQueries({ queryKey: ['webhook-endpoints'] });
      onDone?.();
    },
  });
}

function EditEndpoint({ endpoint, onDone }: { endpoint: WebhookEndpoint; onDone: () => void }) {
  const [draft, setDraft] = useState<EndpointDraft>({
    url: endpoint.url,
    events: endpoint.events.filter(isEventType),
    description: endpoint.description ?? '',
    secret: '',
  });
  const patch = usePatch(endpoint, onDone);
  const save = {
    ...patch,
    mutate: () =>
      patch.mutate({
        url: draft.url.trim(),
        events: draft.events,
        description: draft.description.trim() || null,
        ...(draft.secret ? { secret: draft.secret } : {}),
      }),
  };
  return (
    <FormCard
      title="Edit endpoint"
      submit="Save changes"
      action={save}
      beside={
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      }
    >
      <EndpointFields draft={draft} onChange={setDraft} error={patch.error} existing />
    </FormCard>
  );
}

/** Ping, edit, activate or deactivate, and delete (after a confirmation). */
function EndpointActions({
  endpoint,
  onEdit,
  onPinged,
  onDeleting,
}: {
  endpoint: WebhookEndpoint;
  onEdit: () => void;
  onPinged: () => void;
  /** The endpoint is being deleted (true) or its deletion failed (false): stop reading it. */
  onDeleting: (deleting: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const path = { params: { path: { id: endpoint.id } } };
  const toggle = usePatch(endpoint);
  const ping = useMutation({
    mutationFn: () => call(api.POST('/api/v1/webhook-endpoints/{id}/ping', path)),
    onSuccess: () => {
      onPinged();
      return queryClient.invalidateQueries({ queryKey: ['webhook-deliveries', endpoint.id] });
    },
  });
  const remove = useMutation({
    mutationFn: async () => {
      // No read of its deliveries may cross the deletion (it would answer 404).
      onDeleting(true);
      await queryClient.cancelQueries({ queryKey: ['webhook-deliveries', endpoint.id] });
      return call(api.DELETE('/api/v1/webhook-endpoints/{id}', path));
    },
    onError: () => onDeleting(false),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: ['webhook-deliveries', endpoint.id] });
      queryClient.removeQueries({ queryKey: ['webhook-endpoint', endpoint.id] });
      void queryClient.invalidateQueries({ queryKey: ['webhook-endpoints'] });
      void navigate('/webhooks');
    },
  });
  return (
    <div className="card">
      <div className="actions">
        <button type="button" onClick={() => ping.mutate()} disabled={ping.isPending}>
          Ping
        </button>
        <button type="button" className="secondary" onClick={onEdit}>
          Edit
        </button>
        <button
          type="button"
          className="secondary"
          disabled={toggle.isPending}
          onClick={() => toggle.mutate({ active: !endpoint.active })}
        >
          {endpoint.active ? 'Deactivate' : 'Activate'}
        </button>
        <button type="button" className="danger" onClick={() => setConfirming(true)}>
          Delete endpoint
        </button>
      </div>
      {ping.isSuccess && (
        <p role="status" className="muted">
          Ping queued: its delivery appears below.
        </p>
      )}
      {confirming && (
        <div role="group" aria-labelledby="confirm-delete" className="notice">
          <p id="confirm-delete">
            Delete the endpoint <span className="break">{endpoint.url}</span>? Packyard stops
            sending it events, and its deliveries are gone.
          </p>
          <div className="actions">
            <button
              type="button"
              className="danger"
              disabled={remove.isPending}
              onClick={() => remove.mutate()}
            >
              Yes, delete it
            </button>
            <button type="button" className="secondary" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </div>
        </div>
      )}
      <ErrorNote error={ping.error ?? toggle.error ?? remove.error} />
    </div>
  );
}

/** One webhook endpoint: its settings, actions for writers, and its deliveries. */
export function WebhookEndpointPage() {
  const { id = '' } = useParams();
  const session = useSession();
  const available = hasWebhooks(session);
  const [editing, setEditing] = useState(false);
  const [watchUntil, setWatchUntil] = useState(0);
  const [deleting, setDeleting] = useState(false);
  const endpoint = useQuery({
    queryKey: ['webhook-endpoint', id],
    enabled: available && !deleting,
    queryFn: () => call(api.GET('/api/v1/webhook-endpoints/{id}', { params: { path: { id } } })),
  });
  if (!available) {
    return (
      <>
        <PageTitle>Webhook endpoint</PageTitle>
        <WebhooksNotInEdition />
      </>
    );
  }
  if (endpoint.isPending) return <Loading what="webhook endpoint" />;
  if (endpoint.isError) {
    return (
      <>
        <PageTitle>Webhook endpoint</PageTitle>
        <ErrorNote error={endpoint.error} />
        <Link to="/webhooks">All webhook endpoints</Link>
      </>
    );
  }
  const e = endpoint.data;
  const writable = canWrite(session);
  const watch = () => setWatchUntil(Date.now() + WATCH_MS);
  return (
    <>
      <PageTitle>Webhook endpoint</PageTitle>
      <p>
        <Link to="/webhooks">All webhook endpoints</Link>
      </p>
      <section className="card" aria-labelledby="endpoint-title">
        <h2 id="endpoint-title">Settings</h2>
        <dl className="facts">
          <dt>URL</dt>
          <dd className="break">{e.url}</dd>
          <dt>Status</dt>
          <dd>
            <StatusBadge status={e.active ? 'active' : 'inactive'} />
          </dd>
          <dt>Events</dt>
          <dd className="break">{e.events.join(', ')}</dd>
          <dt>Description</dt>
          <dd className="break">{e.description || '—'}</dd>
          <dt>Secret</dt>
          <dd>{e.secret_set ? 'set (shown only when created)' : 'none'}</dd>
          <dt>Created</dt>
          <dd>{formatTime(e.created_at)}</dd>
        </dl>
      </section>
      {writable && editing && (
        <EditEndpoint key={e.id} endpoint={e} onDone={() => setEditing(false)} />
      )}
      {writable && !editing && (
        <EndpointActions
          endpoint={e}
          onEdit={() => setEditing(true)}
          onPinged={watch}
          onDeleting={setDeleting}
        />
      )}
      <Deliveries
        endpointId={e.id}
        writable={writable}
        enabled={!deleting}
        watchUntil={watchUntil}
        onWatch={watch}
      />
    </>
  );
}
