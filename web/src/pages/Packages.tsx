import { useState } from 'react';
import type { FormEvent } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, call } from '../api/client';
import { ErrorNote, Field, Loading, PageTitle, Pager, TableWrap } from '../components/ui';
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
  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate();
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="add-package-title">
      <h2 id="add-package-title">Add a package</h2>
      <div className="row">
        <Field label="Name" hint="vendor/package, lower case">
          {(id, hint) => (
            <input
              id={id}
              aria-describedby={hint}
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="acme/lib"
              required
            />
          )}
        </Field>
        <Field label="Repository URL">
          {(id) => (
            <input
              id={id}
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder="https://github.com/acme/lib.git"
            />
          )}
        </Field>
        <Field label="Type">
          {(id) => (
            <select
              id={id}
              value={type}
              onChange={(e) => setType(e.target.value as (typeof TYPES)[number])}
            >
              {TYPES.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <button type="submit" disabled={add.isPending}>
        Add package
      </button>
      <ErrorNote error={add.error} />
    </form>
  );
}

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
        <Field label="Search packages">
          {(id) => (
            <input
              id={id}
              type="search"
              value={q}
              onChange={(e) => {
                setQ(e.target.value);
                if (page !== 1) setPage(1);
              }}
            />
          )}
        </Field>
        <ErrorNote error={list.error} />
        {list.isPending ? (
          <Loading what="packages" />
        ) : (
          <TableWrap caption="Packages">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Latest</th>
                <th scope="col">Type</th>
                <th scope="col">Sync</th>
                <th scope="col">Synced at</th>
              </tr>
            </thead>
            <tbody>
              {list.data?.data.map((p) => (
                <tr key={p.id}>
                  <td>
                    <Link to={`/packages/${p.name}`}>{p.name}</Link>
                    {p.description && <div className="muted small">{p.description}</div>}
                  </td>
                  <td>{p.latest_version ?? '—'}</td>
                  <td>{p.type}</td>
                  <td>{syncLabel(p.sync_status)}</td>
                  <td>{formatTime(p.synced_at)}</td>
                </tr>
              ))}
              {list.data?.data.length === 0 && (
                <tr>
                  <td colSpan={5}>
                    {search ? `No package matches “${search}”.` : 'No packages yet.'}
                  </td>
                </tr>
              )}
            </tbody>
          </TableWrap>
        )}
        <Pager pagination={list.data?.pagination} onPage={setPage} label="Packages" />
      </section>
    </>
  );
}
