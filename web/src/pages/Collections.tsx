import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, call } from '../api/client';
import type { Collection } from '../api/types';
import { Pager } from '../components/Pager';
import { ErrorNote, FormCard, PageTitle, TextField } from '../components/ui';
import { canWrite, useSession } from '../lib/session';
import { splitList } from '../lib/snippets';

function CollectionCard({ c, writable }: { c: Collection; writable: boolean }) {
  const queryClient = useQueryClient();
  const [add, setAdd] = useState('');
  const change = useMutation({
    mutationFn: (body: { add_packages?: string[]; remove_packages?: string[] }) =>
      call(api.PATCH('/api/v1/collections/{slug}', { params: { path: { slug: c.slug } }, body })),
    onSuccess: () => {
      setAdd('');
      return queryClient.invalidateQueries({ queryKey: ['collections'] });
    },
  });
  const remove = useMutation({
    mutationFn: () =>
      call(api.DELETE('/api/v1/collections/{slug}', { params: { path: { slug: c.slug } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['collections'] }),
  });
  return (
    <li className="card">
      <h2>
        {c.name} <small className="muted">({c.slug})</small>
      </h2>
      <ul className="plain">
        {c.packages.map((p) => (
          <li key={p}>
            <Link to={`/packages/${p}`}>{p}</Link>{' '}
            {writable && (
              <button
                type="button"
                className="secondary"
                aria-label={`Remove ${p} from ${c.name}`}
                onClick={() => change.mutate({ remove_packages: [p] })}
              >
                Remove
              </button>
            )}
          </li>
        ))}
        {c.packages.length === 0 && <li className="muted">No packages in this collection.</li>}
      </ul>
      {writable && (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            change.mutate({ add_packages: splitList(add) });
          }}
        >
          <TextField
            label={`Add to ${c.name}`}
            value={add}
            onChange={setAdd}
            placeholder="acme/lib"
          />
          <button type="submit" className="secondary" disabled={!add.trim() || change.isPending}>
            Add
          </button>
          <button
            type="button"
            className="danger"
            onClick={() => remove.mutate()}
            aria-label={`Delete collection ${c.name}`}
          >
            Delete collection
          </button>
        </form>
      )}
      <ErrorNote error={change.error ?? remove.error} />
    </li>
  );
}

export function CollectionsPage() {
  const session = useSession();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [members, setMembers] = useState('');
  const list = useQuery({
    queryKey: ['collections', page],
    queryFn: () =>
      call(api.GET('/api/v1/collections', { params: { query: { page, per_page: 25 } } })),
  });
  const create = useMutation({
    mutationFn: () =>
      call(
        api.POST('/api/v1/collections', {
          body: { name: name.trim(), slug: slug.trim(), packages: splitList(members) },
        }),
      ),
    onSuccess: () => {
      setName('');
      setSlug('');
      setMembers('');
      return queryClient.invalidateQueries({ queryKey: ['collections'] });
    },
  });
  const writable = canWrite(session);
  return (
    <>
      <PageTitle>Collections</PageTitle>
      <p className="muted">
        A collection groups packages so one grant gives a customer all of them.
      </p>
      {writable && (
        <FormCard title="New collection" submit="Create collection" action={create}>
          <div className="row">
            <TextField label="Name" value={name} onChange={setName} />
            <TextField
              label="Slug"
              hint="lower case, e.g. pro-bundle"
              value={slug}
              onChange={setSlug}
            />
            <TextField
              label="Members"
              hint="vendor/package, comma separated"
              value={members}
              onChange={setMembers}
            />
          </div>
        </FormCard>
      )}
      <ErrorNote error={list.error} />
      <ul className="cards">
        {list.data?.data.map((c) => (
          <CollectionCard key={c.slug} c={c} writable={writable} />
        ))}
      </ul>
      {list.data?.data.length === 0 && <p className="muted">No collections yet.</p>}
      <Pager pagination={list.data?.pagination} onPage={setPage} label="Collections" />
    </>
  );
}
