import { lazy, Suspense } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { api, call } from '../api/client';
import { ErrorNote, Loading, PageTitle } from '../components/ui';
import { formatTime, isSyncing, syncLabel } from '../lib/format';
import { syncPollInterval, usePackageSyncEvents } from '../lib/live-sync';
import { canWrite, useSession } from '../lib/session';
import { Deliveries, MonorepoChildren, Versions } from './PackageParts';

// Markdown and its sanitizer load only where a readme is shown.
const Readme = lazy(() => import('./Readme'));

export function PackagePage() {
  const { vendor = '', name = '' } = useParams();
  const fullName = `${vendor}/${name}`;
  const session = useSession();
  const queryClient = useQueryClient();
  const { live, last } = usePackageSyncEvents(fullName, session);
  const pkg = useQuery({
    queryKey: ['package', fullName],
    queryFn: () =>
      call(api.GET('/api/v1/packages/{vendor}/{name}', { params: { path: { vendor, name } } })),
    refetchInterval: (query) => syncPollInterval(live, isSyncing(query.state.data?.sync_status)),
  });
  const sync = useMutation({
    mutationFn: () =>
      call(
        api.POST('/api/v1/packages/{vendor}/{name}/sync', { params: { path: { vendor, name } } }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['package', fullName] }),
  });

  if (pkg.isPending) return <Loading what="package" />;
  if (pkg.isError) {
    return (
      <>
        <PageTitle>{fullName}</PageTitle>
        <ErrorNote error={pkg.error} />
      </>
    );
  }
  const p = pkg.data;
  const syncing = isSyncing(p.sync_status) || sync.isPending;
  return (
    <>
      <PageTitle>{p.name}</PageTitle>
      {p.description && <p>{p.description}</p>}
      <section className="card" aria-labelledby="sync-title">
        <h2 id="sync-title">Repository and sync</h2>
        <dl className="facts">
          <dt>Repository</dt>
          <dd className="break">{p.repository_url ?? '—'}</dd>
          <dt>Type</dt>
          <dd>{p.type}</dd>
          <dt>Latest version</dt>
          <dd>{p.latest_version ?? '—'}</dd>
          <dt>Sync status</dt>
          <dd>
            <span role="status" aria-live="polite" className={`sync sync-${p.sync_status}`}>
              {syncLabel(p.sync_status)}
            </span>
          </dd>
          <dt>Last synced</dt>
          <dd>{formatTime(p.synced_at)}</dd>
        </dl>
        {p.sync_error && <p className="error">Last sync failed: {p.sync_error}</p>}
        {last && last.versionsAdded.length > 0 && (
          <p className="muted">Added in the last sync: {last.versionsAdded.join(', ')}</p>
        )}
        {canWrite(session) && (
          <button type="button" onClick={() => sync.mutate()} disabled={syncing}>
            Sync
          </button>
        )}
        <p className="muted small">
          {live
            ? 'Progress is live (GraphQL subscription).'
            : 'Progress refreshes every second while syncing.'}
        </p>
        <ErrorNote error={sync.error} />
      </section>
      <Versions pkg={p} />
      <MonorepoChildren name={p.name} />
      <section aria-labelledby="readme-title">
        <h2 id="readme-title">Readme</h2>
        <Suspense fallback={<Loading what="readme" />}>
          <Readme name={p.name} syncedAt={p.synced_at} />
        </Suspense>
      </section>
      <Deliveries name={p.name} />
    </>
  );
}
