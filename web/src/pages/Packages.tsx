import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, call } from '../api/client';
import type { Package } from '../api/types';
import { PagedTable } from '../components/DataTable';
import type { Column } from '../components/DataTable';
import { FormCard, PageTitle, SelectField, TextField } from '../components/ui';
import { formatTime, syncLabel } from '../lib/format';
import { canWrite, useSession } from '../lib/session';
import { useDebounced } from '../lib/use-debounced';

const TYPES = ['git', 'github', 'gitlab', 'bitbucket', 'artifact'] as const;

function AddPackage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [type, setType] = useState<(typeof TYPES)[number]>('git');
  const add = useMutation({
    mutationFn: () =>
      call(
        api.POST('/api/v1/packages', {
          body: { name: name.trim(), repository_url: url.trim() || undefined, type },
        }),
      ),
    onSuccess: async (pkg) => {
      await queryClient.invalidateQueries({ queryKey: ['packages'] });
      void navigate(`/packages/${pkg.name}`);
    },
  });
  return (
    <FormCard title="Add a package" submit="Add package" action={add}>
      <div className="row">
        <TextField
          label="Name"
          hint="vendor/package, lower case"
          value={name}
          onChange={setName}
          placeholder="acme/lib"
          required
        />
        <TextField
          label="Repository URL"
          value={url}
          onChange={setUrl}
          placeholder="https://github.com/acme/lib.git"
        />
        <SelectField label="Type" value={type} options={TYPES} onChange={setType} />
      </div>
    </FormCard>
  );
}

const COLUMNS: Column<Package>[] = [
  {
    header: 'Name',
    cell: (p) => (
      <>
        <Link to={`/packages/${p.name}`}>{p.name}</Link>
        {p.description && <div className="muted small">{p.description}</div>}
      </>
    ),
  },
  { header: 'Latest', cell: (p) => p.latest_version ?? '—' },
  { header: 'Type', cell: (p) => p.type },
  { header: 'Sync', cell: (p) => syncLabel(p.sync_status) },
  { header: 'Synced at', cell: (p) => formatTime(p.synced_at) },
];

export function PackagesPage() {
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [q, setQ] = useState(params.get('q') ?? '');
  const search = useDebounced(q.trim());
  const list = useQuery({
    queryKey: ['packages', search, page],
    placeholderData: keepPreviousData,
    queryFn: () =>
      call(
        api.GET('/api/v1/packages', {
          params: { query: { q: search || undefined, page, per_page: 25 } },
        }),
      ),
  });
  const setPage = (p: number) =>
    setParams((prev) => {
      prev.set('page', String(p));
      return prev;
    });

  return (
    <>
      <PageTitle>Packages</PageTitle>
      {canWrite(session) && <AddPackage />}
      <section aria-labelledby="package-list-title">
        <h2 id="package-list-title">All packages</h2>
        <TextField
          label="Search packages"
          type="search"
          value={q}
          onChange={(v) => {
            setQ(v);
            if (page !== 1) setPage(1);
          }}
        />
        <PagedTable
          caption="Packages"
          what="packages"
          list={list}
          columns={COLUMNS}
          rowKey={(p) => p.id}
          empty={search ? `No package matches “${search}”.` : 'No packages yet.'}
          onPage={setPage}
        />
      </section>
    </>
  );
}
