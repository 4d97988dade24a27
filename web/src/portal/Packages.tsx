import { lazy, Suspense, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { call, pkgParams } from '../api/client';
import { DataTable, PagedTable } from '../components/DataTable';
import { ErrorNote, Loading, PageTitle } from '../components/ui';
import { formatTime } from '../lib/format';
import { portalApi } from './client';
import type { MyPackage } from './client';

// The markdown renderer loads only with a package's page.
const PortalReadme = lazy(() => import('./Readme'));

function Versions({ versions }: { versions: readonly string[] }) {
  if (versions.length === 0) return <span className="muted">none yet</span>;
  return (
    <ul className="versions" aria-label="Versions">
      {versions.map((v) => (
        <li key={v}>{v}</li>
      ))}
    </ul>
  );
}

/** The packages this token may install, with the versions it may install. */
export function PackagesPage() {
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: ['my-packages', page],
    queryFn: () =>
      call(portalApi.GET('/api/v1/me/packages', { params: { query: { page, per_page: 25 } } })),
  });
  return (
    <>
      <PageTitle>Your packages</PageTitle>
      <p className="muted">
        What this token may install with Composer. See <Link to="/setup">Setup</Link> for how.
      </p>
      <PagedTable<MyPackage>
        caption="Packages"
        what="your packages"
        list={list}
        onPage={setPage}
        rowKey={(p) => p.name}
        empty="No packages yet: your vendor has not given this token access to any."
        columns={[
          {
            header: 'Package',
            className: 'break',
            cell: (p) => <Link to={`/packages/${p.name}`}>{p.name}</Link>,
          },
          { header: 'Description', className: 'break', cell: (p) => p.description ?? '' },
          { header: 'Versions', cell: (p) => <Versions versions={p.versions} /> },
        ]}
      />
    </>
  );
}

/** One package: its versions and its readme. */
export function PackagePage() {
  const { vendor = '', name = '' } = useParams();
  const full = `${vendor}/${name}`;
  const detail = useQuery({
    queryKey: ['my-package', full],
    queryFn: () =>
      call(
        portalApi.GET('/api/v1/me/packages/{vendor}/{name}', {
          params: { path: pkgParams(full) },
        }),
      ),
  });
  return (
    <>
      <p>
        <Link to="/">← Your packages</Link>
      </p>
      <PageTitle>{full}</PageTitle>
      <ErrorNote error={detail.error} />
      {detail.isPending && <Loading what="the package" />}
      {detail.data && (
        <>
          {detail.data.description && <p>{detail.data.description}</p>}
          <section aria-labelledby="versions-title">
            <h2 id="versions-title">Versions</h2>
            <DataTable
              caption="Versions"
              rows={detail.data.versions}
              rowKey={(v) => v.version}
              empty="No version you may install yet."
              columns={[
                { header: 'Version', className: 'break', cell: (v) => v.version },
                { header: 'Kind', cell: (v) => (v.kind === 'tag' ? 'release' : 'branch') },
                { header: 'Released', cell: (v) => formatTime(v.released_at) },
              ]}
            />
            <p className="muted">
              Install with <code>composer require {full}</code>.
            </p>
          </section>
          <section aria-labelledby="readme-title">
            <h2 id="readme-title">Readme</h2>
            {detail.data.readme ? (
              <Suspense fallback={<Loading what="the readme" />}>
                <PortalReadme content={detail.data.readme.content} />
              </Suspense>
            ) : (
              <p className="muted">This package has no readme.</p>
            )}
          </section>
        </>
      )}
    </>
  );
}
