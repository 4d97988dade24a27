import { useState } from 'react';
import type { FormEvent } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, call } from '../api/client';
import type { CustomerStatus } from '../api/types';
import {
  ErrorNote,
  Field,
  Loading,
  PageTitle,
  Pager,
  StatusBadge,
  TableWrap,
} from '../components/ui';
import { formatTime } from '../lib/format';
import { canWrite, useSession } from '../lib/session';

const STATUSES: CustomerStatus[] = ['ACTIVE', 'SUSPENDED', 'FROZEN', 'EXPIRED'];

function CreateCustomer() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const create = useMutation({
    mutationFn: () =>
      call(api.POST('/api/v1/customers', { body: { name: name.trim(), email: email.trim() } })),
    onSuccess: async (c) => {
      await queryClient.invalidateQueries({ queryKey: ['customers'] });
      void navigate(`/customers/${c.id}`);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="create-customer-title">
      <h2 id="create-customer-title">New customer</h2>
      <div className="row">
        <Field label="Name">
          {(id) => (
            <input id={id} value={name} onChange={(e) => setName(e.target.value)} required />
          )}
        </Field>
        <Field label="Email">
          {(id) => (
            <input
              id={id}
              type="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              required
            />
          )}
        </Field>
      </div>
      <button type="submit" disabled={create.isPending}>
        Create customer
      </button>
      <ErrorNote error={create.error} />
    </form>
  );
}

export function CustomersPage() {
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const status = (params.get('status') ?? '') as CustomerStatus | '';
  const list = useQuery({
    queryKey: ['customers', status, page],
    placeholderData: keepPreviousData,
    queryFn: () =>
      call(
        api.GET('/api/v1/customers', {
          params: { query: { status: status || undefined, page, per_page: 25 } },
        }),
      ),
  });
  const update = (key: string, value: string) =>
    setParams((prev) => {
      if (value) prev.set(key, value);
      else prev.delete(key);
      if (key !== 'page') prev.delete('page');
      return prev;
    });

  return (
    <>
      <PageTitle>Customers</PageTitle>
      {canWrite(session) && <CreateCustomer />}
      <section aria-labelledby="customer-list-title">
        <h2 id="customer-list-title">All customers</h2>
        <Field label="Status">
          {(id) => (
            <select id={id} value={status} onChange={(e) => update('status', e.target.value)}>
              <option value="">Any status</option>
              {STATUSES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          )}
        </Field>
        <ErrorNote error={list.error} />
        {list.isPending ? (
          <Loading what="customers" />
        ) : (
          <TableWrap caption="Customers">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {list.data?.data.map((c) => (
                <tr key={c.id}>
                  <td>
                    <Link to={`/customers/${c.id}`}>{c.name}</Link>
                  </td>
                  <td className="break">{c.email}</td>
                  <td>
                    <StatusBadge status={c.status} />
                  </td>
                  <td>{formatTime(c.created_at)}</td>
                </tr>
              ))}
              {list.data?.data.length === 0 && (
                <tr>
                  <td colSpan={4}>No customers{status ? ` with status ${status}` : ''}.</td>
                </tr>
              )}
            </tbody>
          </TableWrap>
        )}
        <Pager
          pagination={list.data?.pagination}
          onPage={(p) => update('page', String(p))}
          label="Customers"
        />
      </section>
    </>
  );
}
