import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../api/client';
import type { WebhookDelivery } from '../api/types';
import { PagedTable } from '../components/DataTable';
import type { Column } from '../components/DataTable';
import { ErrorNote } from '../components/ui';
import { isNotFound } from '../lib/errors';
import { formatTime } from '../lib/format';
import { DeliveryStatus } from './WebhooksShared';

/** How long the list keeps re-reading after a ping or redelivery, for its answer to show. */
export const WATCH_MS = 30_000;

/**
 * Re-read every second while a delivery is being sent or was just asked for; every 5 s
 * otherwise, so deliveries of new events show up while the page is open.
 */
export function deliveriesPollInterval(
  rows: readonly Pick<WebhookDelivery, 'status' | 'next_attempt_at'>[] | undefined,
  watchUntil: number,
  now = Date.now(),
): number {
  if (now < watchUntil) return 1000;
  // A retry waits for its time; a delivery being sent has none (or one already past).
  const sending = rows?.some(
    (d) =>
      d.status === 'pending' && (!d.next_attempt_at || Date.parse(d.next_attempt_at) <= now + 2000),
  );
  return sending ? 1000 : 5000;
}

const duration = (ms: number | null | undefined) =>
  ms === null || ms === undefined ? '—' : `${ms} ms`;

/** One endpoint's deliveries, newest first, with Redeliver (writers) and Ping above them. */
export function Deliveries({
  endpointId,
  writable,
  enabled,
  watchUntil,
  onWatch,
}: {
  endpointId: string;
  writable: boolean;
  /** False while the endpoint is being deleted: no more reads. */
  enabled: boolean;
  /** Until when (ms since epoch) to re-read every second, after a ping or redelivery. */
  watchUntil: number;
  onWatch: () => void;
}) {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: ['webhook-deliveries', endpointId, page],
    placeholderData: keepPreviousData,
    enabled,
    // An endpoint deleted meanwhile (in another tab) is not asked about again.
    refetchInterval: (q) =>
      isNotFound(q.state.error) ? false : deliveriesPollInterval(q.state.data?.data, watchUntil),
    queryFn: () =>
      call(
        api.GET('/api/v1/webhook-endpoints/{id}/deliveries', {
          params: { path: { id: endpointId }, query: { page, per_page: 25 } },
        }),
      ),
  });
  const redeliver = useMutation({
    mutationFn: (deliveryId: string) =>
      call(
        api.POST('/api/v1/webhook-endpoints/{id}/deliveries/{delivery_id}/redeliver', {
          params: { path: { id: endpointId, delivery_id: deliveryId } },
        }),
      ),
    onSuccess: () => {
      onWatch();
      return queryClient.invalidateQueries({ queryKey: ['webhook-deliveries', endpointId] });
    },
  });
  const columns: (Column<WebhookDelivery> | false)[] = [
    {
      header: 'Event',
      className: 'break',
      cell: (d) => (
        <>
          <code>{d.event_type}</code>
          <div className="muted small">{d.event_id}</div>
        </>
      ),
    },
    { header: 'Status', cell: (d) => <DeliveryStatus status={d.status} /> },
    { header: 'Attempts', cell: (d) => d.attempts },
    {
      header: 'Response',
      className: 'break',
      // A status when the receiver answered; else why it could not (refused, timed out).
      cell: (d) => d.response_status ?? (d.error ? <span className="small">{d.error}</span> : '—'),
    },
    { header: 'Duration', cell: (d) => duration(d.duration_ms) },
    { header: 'Created', cell: (d) => formatTime(d.created_at) },
    { header: 'Next attempt', cell: (d) => formatTime(d.next_attempt_at) },
    writable && {
      header: 'Actions',
      cell: (d) => (
        <button
          type="button"
          className="secondary"
          aria-label={`Redeliver ${d.event_type} ${d.id}`}
          disabled={redeliver.isPending && redeliver.variables === d.id}
          onClick={() => redeliver.mutate(d.id)}
        >
          Redeliver
        </button>
      ),
    },
  ];
  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Deliveries</h2>
      <p className="muted small">
        Newest first. A failed attempt is retried at growing intervals (8 attempts in all);
        Redeliver sends the same event again now.
      </p>
      <ErrorNote error={redeliver.error} />
      {redeliver.isSuccess && (
        <p role="status" className="muted">
          Redelivery queued.
        </p>
      )}
      <PagedTable
        caption="Deliveries"
        what="deliveries"
        list={list}
        columns={columns}
        rowKey={(d) => d.id}
        empty="No deliveries yet. Ping the endpoint to send one."
        onPage={setPage}
      />
    </section>
  );
}
