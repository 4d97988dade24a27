import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, call, pkgParams } from '../api/client';
import type { PackageDetail, Version } from '../api/types';
import { DataTable } from '../components/DataTable';
import { ErrorNote, Loading } from '../components/ui';
import { isNotFound } from '../lib/errors';
import { formatNumber, formatTime } from '../lib/format';
import { canWrite, useSession } from '../lib/session';

type Flag = 'yank' | 'unyank' | 'deprecate';

export function Versions({ pkg }: { pkg: PackageDetail }) {
  const session = useSession();
  const queryClient = useQueryClient();
  const path = pkgParams(pkg.name);
  const flag = useMutation({
    mutationFn: ({ action, version }: { action: Flag; version: string }) => {
      const params = { params: { path: { ...path, version } } };
      if (action === 'yank')
        return call(api.POST('/api/v1/packages/{vendor}/{name}/yank/{version}', params));
      if (action === 'unyank')
        return call(api.POST('/api/v1/packages/{vendor}/{name}/unyank/{version}', params));
      return call(api.POST('/api/v1/packages/{vendor}/{name}/deprecate/{version}', params));
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['package', pkg.name] }),
  });
  const writable = canWrite(session);
  const actions = (v: Version) => (
    <div className="actions">
      <button
        type="button"
        className="secondary"
        disabled={flag.isPending}
        aria-label={`${v.yanked ? 'Unyank' : 'Yank'} ${v.version}`}
        onClick={() => flag.mutate({ action: v.yanked ? 'unyank' : 'yank', version: v.version })}
      >
        {v.yanked ? 'Unyank' : 'Yank'}
      </button>
      {!v.deprecated && (
        <button
          type="button"
          className="secondary"
          disabled={flag.isPending}
          aria-label={`Deprecate ${v.version}`}
          onClick={() => flag.mutate({ action: 'deprecate', version: v.version })}
        >
          Deprecate
        </button>
      )}
    </div>
  );
  return (
    <section aria-labelledby="versions-title">
      <h2 id="versions-title">Versions</h2>
      <ErrorNote error={flag.error} />
      <DataTable
        caption="Versions"
        rows={pkg.versions}
        rowKey={(v) => v.version_normalized}
        empty="No versions yet."
        columns={[
          { header: 'Version', cell: (v) => <code>{v.version}</code> },
          { header: 'Released', cell: (v) => formatTime(v.released_at) },
          { header: 'Downloads', cell: (v) => formatNumber(v.downloads) },
          {
            header: 'State',
            cell: (v) =>
              [v.yanked && 'yanked', v.deprecated && 'deprecated'].filter(Boolean).join(', ') ||
              'available',
          },
          writable && { header: 'Actions', cell: actions },
        ]}
      />
    </section>
  );
}

/**
 * A monorepo parent's child packages, asked for when a person asks. The package's JSON does not
 * say whether it is a monorepo parent, and the monorepo view answers 404 for any other package,
 * so the page does not ask on its own (no failing request on every ordinary package's page).
 */
export function MonorepoChildren({ name }: { name: string }) {
  const path = pkgParams(name);
  const [asked, setAsked] = useState(false);
  const mono = useQuery({
    queryKey: ['monorepo', name],
    enabled: asked,
    staleTime: 60_000,
    queryFn: () => call(api.GET('/api/v1/packages/{vendor}/{name}/monorepo', { params: { path } })),
  });
  return (
    <section aria-labelledby="monorepo-title">
      <h2 id="monorepo-title">Monorepo children</h2>
      {!asked ? (
        <p className="actions muted">
          Packages made from folders of this repository, if it was added as a monorepo.
          <button type="button" className="secondary" onClick={() => setAsked(true)}>
            Show monorepo children
          </button>
        </p>
      ) : isNotFound(mono.error) ? (
        <p className="muted" role="status">
          Not a monorepo: no folders were declared when this package was added.
        </p>
      ) : mono.isError ? (
        <ErrorNote error={mono.error} />
      ) : !mono.data ? (
        <Loading what="monorepo children" />
      ) : (
        <>
          <p className="muted">Folders: {mono.data.paths.join(', ')}</p>
          <ul>
            {mono.data.children.map((child) => (
              <li key={child}>
                <Link to={`/packages/${child}`}>{child}</Link>
              </li>
            ))}
            {mono.data.children.length === 0 && <li>No children found yet.</li>}
          </ul>
        </>
      )}
    </section>
  );
}

export function Deliveries({ name }: { name: string }) {
  const path = pkgParams(name);
  const list = useQuery({
    queryKey: ['package', name, 'deliveries'],
    queryFn: () =>
      call(
        api.GET('/api/v1/packages/{vendor}/{name}/webhook-deliveries', {
          params: { path, query: { per_page: 20 } },
        }),
      ),
  });
  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Webhook deliveries</h2>
      <ErrorNote error={list.error} />
      {list.data && list.data.data.length === 0 ? (
        <p className="muted">No webhook deliveries for this package yet.</p>
      ) : (
        <DataTable
          caption="Webhook deliveries"
          rows={list.data?.data ?? []}
          rowKey={(d) => d.id}
          columns={[
            { header: 'Received', cell: (d) => formatTime(d.received_at) },
            { header: 'Provider', cell: (d) => d.provider },
            { header: 'Event', cell: (d) => d.event },
            { header: 'Status', cell: (d) => d.status },
            { header: 'Message', cell: (d) => d.message ?? '', className: 'break' },
          ]}
        />
      )}
    </section>
  );
}
