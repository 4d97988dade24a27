import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, call } from '../api/client';
import type { Customer, CustomerStatus } from '../api/types';
import { PagedTable } from '../components/DataTable';
import type { Column } from '../components/DataTable';
import { FormCard, PageTitle, SelectField, StatusBadge, TextField } from '../components/ui';
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
  return (
    <FormCard title="New customer" submit="Create customer" action={create}>
      <div className="row">
        <TextField label="Name" value={name} onChange={setName} required />
        <TextField label="Email" type="email" value={email} onChange={setEmail} required />
      </div>
    </FormCard>
  );
}

const COLUMNS: Column<Customer>[] = [
  { header: 'Name', cell: (c) => <Link to={`/customers/${c.id}`}>{c.name}</Link> },
  { header: 'Email', cell: (c) => c.email, className: 'break' },
  { header: 'Status', cell: (c) => <StatusBadge status={c.status} /> },
  { header: 'Created', cell: (c) => formatTime(c.created_at) },
];

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
        <SelectField
          label="Status"
          blank="Any status"
          value={status}
          options={STATUSES}
          onChange={(s) => update('status', s)}
        />
        <PagedTable
          caption="Customers"
          what="customers"
          list={list}
          columns={COLUMNS}
          rowKey={(c) => c.id}
          empty={`No customers${status ? ` with status ${status}` : ''}.`}
          onPage={(p) => update('page', String(p))}
        />
      </section>
    </>
  );
}
