import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { api, call } from '../api/client';
import type { Customer } from '../api/types';
import { ErrorNote, FormCard, Loading, PageTitle, StatusBadge, TextField } from '../components/ui';
import { formatTime } from '../lib/format';
import { canWrite, useSession } from '../lib/session';
import { CollectionGrants, Grants } from './CustomerAccess';
import { Tokens } from './CustomerTokens';

function EditCustomer({ customer, onDone }: { customer: Customer; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(customer.name);
  const [email, setEmail] = useState(customer.email);
  const [externalId, setExternalId] = useState(customer.external_id ?? '');
  const [expires, setExpires] = useState(customer.access_expires_at?.slice(0, 10) ?? '');
  const save = useMutation({
    mutationFn: () =>
      call(
        api.PATCH('/api/v1/customers/{id}', {
          params: { path: { id: customer.id } },
          body: {
            name: name.trim(),
            email: email.trim(),
            ...(externalId.trim() ? { external_id: externalId.trim() } : {}),
            ...(expires ? { access_expires_at: `${expires}T00:00:00Z` } : {}),
          },
        }),
      ),
    onSuccess: (c) => {
      queryClient.setQueryData(['customer', customer.id], c);
      void queryClient.invalidateQueries({ queryKey: ['customers'] });
      onDone();
    },
  });
  return (
    <FormCard
      title="Details"
      submit="Save changes"
      action={save}
      beside={
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      }
    >
      <div className="row">
        <TextField label="Name" value={name} onChange={setName} />
        <TextField label="Email" type="email" value={email} onChange={setEmail} />
        <TextField label="External ID" value={externalId} onChange={setExternalId} />
        <TextField label="Access expires" type="date" value={expires} onChange={setExpires} />
      </div>
    </FormCard>
  );
}

function StatusActions({ customer }: { customer: Customer }) {
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const path = { params: { path: { id: customer.id } } };
  const change = useMutation({
    mutationFn: (action: 'suspend' | 'reactivate' | 'freeze') => {
      if (action === 'suspend') {
        return call(
          api.POST('/api/v1/customers/{id}/suspend', {
            ...path,
            body: reason.trim() ? { reason: reason.trim() } : {},
          }),
        );
      }
      if (action === 'reactivate') return call(api.POST('/api/v1/customers/{id}/reactivate', path));
      return call(api.POST('/api/v1/customers/{id}/freeze', { ...path, body: {} }));
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['customer', customer.id] });
      void queryClient.invalidateQueries({ queryKey: ['customers'] });
    },
  });
  const s = customer.status;
  return (
    <section className="card" aria-labelledby="status-title">
      <h2 id="status-title">Access</h2>
      {s !== 'SUSPENDED' && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            change.mutate('suspend');
          }}
          className="inline-form"
        >
          <TextField label="Reason" value={reason} onChange={setReason} />
          <button type="submit" className="danger" disabled={change.isPending}>
            Suspend
          </button>
        </form>
      )}
      <div className="actions">
        {s !== 'ACTIVE' && (
          <button
            type="button"
            onClick={() => change.mutate('reactivate')}
            disabled={change.isPending}
          >
            Reactivate
          </button>
        )}
        {(s === 'ACTIVE' || s === 'FROZEN') && (
          <button
            type="button"
            className="secondary"
            onClick={() => change.mutate('freeze')}
            disabled={change.isPending}
          >
            Freeze at visible versions
          </button>
        )}
      </div>
      <ErrorNote error={change.error} />
    </section>
  );
}

export function CustomerPage() {
  const { id = '' } = useParams();
  const session = useSession();
  const [editing, setEditing] = useState(false);
  const customer = useQuery({
    queryKey: ['customer', id],
    queryFn: () => call(api.GET('/api/v1/customers/{id}', { params: { path: { id } } })),
  });
  if (customer.isPending) return <Loading what="customer" />;
  if (customer.isError) {
    return (
      <>
        <PageTitle>Customer</PageTitle>
        <ErrorNote error={customer.error} />
      </>
    );
  }
  const c = customer.data;
  return (
    <>
      <PageTitle>{c.name}</PageTitle>
      <p>
        <StatusBadge status={c.status} /> {c.email} · since {formatTime(c.created_at)}
        {c.status_reason && <span> · reason: {c.status_reason}</span>}
        {c.access_expires_at && <span> · access until {formatTime(c.access_expires_at)}</span>}
      </p>
      {canWrite(session) && (
        <div className="two-col">
          {editing ? (
            <EditCustomer key={c.updated_at} customer={c} onDone={() => setEditing(false)} />
          ) : (
            <div className="card">
              <h2>Details</h2>
              <p className="muted">External ID: {c.external_id ?? '—'}</p>
              <button type="button" className="secondary" onClick={() => setEditing(true)}>
                Edit details
              </button>
            </div>
          )}
          <StatusActions customer={c} />
        </div>
      )}
      <Grants customerId={c.id} />
      <CollectionGrants customerId={c.id} />
      <Tokens customerId={c.id} />
    </>
  );
}
