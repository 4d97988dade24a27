import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, call, pkgParams } from '../api/client';
import { DataTable } from '../components/DataTable';
import { ErrorNote, Field, FormCard, TextField } from '../components/ui';
import { formatTime } from '../lib/format';
import { canWrite, useSession } from '../lib/session';
import { useDebounced } from '../lib/use-debounced';
import { ConstraintPreview } from './ConstraintPreview';

function GrantForm({ customerId }: { customerId: string }) {
  const queryClient = useQueryClient();
  const [pkg, setPkg] = useState('');
  const [constraint, setConstraint] = useState('*');
  const search = useDebounced(pkg.trim());
  const options = useQuery({
    queryKey: ['packages', search, 'options'],
    queryFn: () =>
      call(
        api.GET('/api/v1/packages', {
          params: { query: { q: search || undefined, per_page: 20 } },
        }),
      ),
  });
  const grant = useMutation({
    mutationFn: () =>
      call(
        api.POST('/api/v1/customers/{id}/packages', {
          params: { path: { id: customerId } },
          body: { package: pkg.trim().toLowerCase(), constraint: constraint.trim() || '*' },
        }),
      ),
    onSuccess: () => {
      setPkg('');
      setConstraint('*');
      return queryClient.invalidateQueries({ queryKey: ['customer', customerId, 'grants'] });
    },
  });
  return (
    <FormCard title="Grant a package" level={3} submit="Grant access" action={grant}>
      <div className="row">
        <Field label="Package">
          {(id) => (
            <>
              <input
                id={id}
                list={`${id}-options`}
                value={pkg}
                onChange={(e) => setPkg(e.target.value)}
                autoComplete="off"
                placeholder="acme/lib"
              />
              <datalist id={`${id}-options`}>
                {options.data?.data.map((p) => (
                  <option key={p.id} value={p.name} />
                ))}
              </datalist>
            </>
          )}
        </Field>
        <Field label="Constraint" hint="Composer syntax: ^1.0, ~2.3, >=1.2 <2, * for all">
          {(id, hint) => (
            <input
              id={id}
              aria-describedby={hint}
              value={constraint}
              onChange={(e) => setConstraint(e.target.value)}
            />
          )}
        </Field>
      </div>
      <ConstraintPreview pkg={pkg} constraint={constraint} />
    </FormCard>
  );
}

export function Grants({ customerId }: { customerId: string }) {
  const session = useSession();
  const queryClient = useQueryClient();
  const grants = useQuery({
    queryKey: ['customer', customerId, 'grants'],
    queryFn: () =>
      call(
        api.GET('/api/v1/customers/{id}/packages', {
          params: { path: { id: customerId }, query: { per_page: 100 } },
        }),
      ),
  });
  const revoke = useMutation({
    mutationFn: (pkg: string) =>
      call(
        api.DELETE('/api/v1/customers/{id}/packages/{vendor}/{name}', {
          params: { path: { id: customerId, ...pkgParams(pkg) } },
        }),
      ),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: ['customer', customerId, 'grants'] }),
  });
  const writable = canWrite(session);
  return (
    <section aria-labelledby="grants-title">
      <h2 id="grants-title">Packages granted</h2>
      {writable && <GrantForm customerId={customerId} />}
      <ErrorNote error={grants.error ?? revoke.error} />
      <DataTable
        caption="Packages granted"
        rows={grants.data?.data ?? []}
        rowKey={(g) => `${g.package}-${g.via_collection ?? ''}`}
        empty={grants.data && 'No packages granted yet.'}
        columns={[
          {
            header: 'Package',
            cell: (g) => <Link to={`/packages/${g.package}`}>{g.package}</Link>,
          },
          { header: 'Constraint', cell: (g) => <code>{g.constraint}</code> },
          {
            header: 'Via',
            cell: (g) => (g.via_collection ? `collection ${g.via_collection}` : 'direct'),
          },
          { header: 'Granted', cell: (g) => formatTime(g.granted_at) },
          writable && {
            header: 'Actions',
            cell: (g) =>
              !g.via_collection && (
                <button
                  type="button"
                  className="secondary"
                  aria-label={`Revoke ${g.package}`}
                  onClick={() => revoke.mutate(g.package)}
                >
                  Revoke
                </button>
              ),
          },
        ]}
      />
    </section>
  );
}

export function CollectionGrants({ customerId }: { customerId: string }) {
  const session = useSession();
  const queryClient = useQueryClient();
  const [slug, setSlug] = useState('');
  const [constraint, setConstraint] = useState('*');
  const key = ['customer', customerId, 'collections'];
  const granted = useQuery({
    queryKey: key,
    queryFn: () =>
      call(api.GET('/api/v1/customers/{id}/collections', { params: { path: { id: customerId } } })),
  });
  const all = useQuery({
    queryKey: ['collections', 'options'],
    enabled: canWrite(session),
    queryFn: () => call(api.GET('/api/v1/collections', { params: { query: { per_page: 100 } } })),
  });
  const invalidate = () => {
    void queryClient.invalidateQueries({ queryKey: key });
    void queryClient.invalidateQueries({ queryKey: ['customer', customerId, 'grants'] });
  };
  const grant = useMutation({
    mutationFn: () =>
      call(
        api.POST('/api/v1/customers/{id}/collections', {
          params: { path: { id: customerId } },
          body: { collection: slug, constraint: constraint.trim() || '*' },
        }),
      ),
    onSuccess: invalidate,
  });
  const revoke = useMutation({
    mutationFn: (s: string) =>
      call(
        api.DELETE('/api/v1/customers/{id}/collections/{slug}', {
          params: { path: { id: customerId, slug: s } },
        }),
      ),
    onSuccess: invalidate,
  });
  const writable = canWrite(session);
  return (
    <section aria-labelledby="collection-grants-title">
      <h2 id="collection-grants-title">Collections granted</h2>
      {writable && (
        <form
          className="card inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            grant.mutate();
          }}
        >
          <Field label="Collection">
            {(id) => (
              <select id={id} value={slug} onChange={(e) => setSlug(e.target.value)}>
                <option value="">Choose…</option>
                {all.data?.data.map((c) => (
                  <option key={c.slug} value={c.slug}>
                    {c.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <TextField label="Version range" value={constraint} onChange={setConstraint} />
          <button type="submit" disabled={!slug || grant.isPending}>
            Grant collection
          </button>
        </form>
      )}
      <ErrorNote error={granted.error ?? grant.error ?? revoke.error} />
      <ul className="plain">
        {granted.data?.data.map((g) => (
          <li key={g.collection}>
            {g.name} (<code>{g.constraint}</code>) · {formatTime(g.granted_at)}{' '}
            {writable && (
              <button
                type="button"
                className="secondary"
                aria-label={`Revoke collection ${g.name}`}
                onClick={() => revoke.mutate(g.collection)}
              >
                Revoke
              </button>
            )}
          </li>
        ))}
        {granted.data?.data.length === 0 && <li className="muted">No collections granted.</li>}
      </ul>
    </section>
  );
}
