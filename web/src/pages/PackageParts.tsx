import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, call, pkgParams } from '../api/client';
import type { PackageDetail, Version } from '../api/types';
import { ErrorNote, TableWrap } from '../components/ui';
import { isUnavailable } from '../lib/errors';
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
      <TableWrap caption="Versions">
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Released</th>
            <th scope="col">Downloads</th>
            <th scope="col">State</th>
            {writable && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {pkg.versions.map((v) => (
            <tr key={v.version_normalized}>
              <td>
                <code>{v.version}</code>
              </td>
              <td>{formatTime(v.released_at)}</td>
              <td>{formatNumber(v.downloads)}</td>
              <td>
                {[v.yanked && 'yanked', v.deprecated && 'deprecated'].filter(Boolean).join(', ') ||
                  'available'}
              </td>
              {writable && <td>{actions(v)}</td>}
            </tr>
          ))}
          {pkg.versions.length === 0 && (
            <tr>
              <td colSpan={5}>No versions yet.</td>
            </tr>
          )}
        </tbody>
      </TableWrap>
    </section>
  );
}

export function MonorepoChildren({ name }: { name: string }) {
  const path = pkgParams(name);
  const mono = useQuery({
    queryKey: ['monorepo', name],
    staleTime: 60_000,
    queryFn: () => call(api.GET('/api/v1/packages/{vendor}/{name}/monorepo', { params: { path } })),
  });
  if (mono.isError && isUnavailable(mono.error)) return null;
  if (!mono.data) return <ErrorNote error={mono.error} />;
  return (
    <section aria-labelledby="monorepo-title">
      <h2 id="monorepo-title">Monorepo children</h2>
      <p className="muted">Folders: {mono.data.paths.join(', ')}</p>
      <ul>
        {mono.data.children.map((child) => (
          <li key={child}>
            <Link to={`/packages/${child}`}>{child}</Link>
          </li>
        ))}
        {mono.data.children.length === 0 && <li>No children found yet.</li>}
      </ul>
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
        <TableWrap caption="Webhook deliveries">
          <thead>
            <tr>
              <th scope="col">Received</th>
              <th scope="col">Provider</th>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Message</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.data.map((d) => (
              <tr key={d.id}>
                <td>{formatTime(d.received_at)}</td>
                <td>{d.provider}</td>
                <td>{d.event}</td>
                <td>{d.status}</td>
                <td>{d.message ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </TableWrap>
      )}
    </section>
  );
}
