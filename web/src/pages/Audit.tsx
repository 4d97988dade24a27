import { useState } from 'react';
import type { FormEvent } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, call } from '../api/client';
import type { AuditEntry } from '../api/types';
import { PagedTable } from '../components/DataTable';
import type { Column } from '../components/DataTable';
import { PageTitle, TextField } from '../components/ui';
import { formatTime } from '../lib/format';

interface Filters {
  actor: string;
  action: string;
  target: string;
  from: string;
  to: string;
}

const EMPTY: Filters = { actor: '', action: '', target: '', from: '', to: '' };

/** The filter form's values as the audit API's query (blank ones left out; days as UTC bounds). */
export function auditQuery(f: Filters, page: number) {
  return {
    page,
    per_page: 25,
    ...(f.actor.trim() ? { actor: f.actor.trim() } : {}),
    ...(f.action.trim() ? { action: f.action.trim() } : {}),
    ...(f.target.trim() ? { target: f.target.trim() } : {}),
    ...(f.from ? { from: `${f.from}T00:00:00Z` } : {}),
    ...(f.to ? { to: `${f.to}T23:59:59Z` } : {}),
  };
}

const describe = (v: unknown): string => {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (typeof v !== 'object') return '—';
  const o = v as Record<string, unknown>;
  if (typeof o.kind === 'string')
    return o.id === null || o.id === undefined ? o.kind : `${o.kind} ${describe(o.id)}`;
  if (typeof o.type === 'string') return [o.type, o.id ?? o.name].filter(Boolean).join(' ');
  return JSON.stringify(v);
};

const COLUMNS: Column<AuditEntry>[] = [
  { header: 'When', cell: (e) => formatTime(e.created_at) },
  { header: 'Actor', cell: (e) => describe(e.actor) },
  { header: 'Action', cell: (e) => <code>{e.action}</code> },
  { header: 'Target', cell: (e) => describe(e.target) },
  {
    header: 'Summary',
    cell: (e) => <code>{JSON.stringify(e.summary)}</code>,
    className: 'summary',
  },
];

export function AuditPage() {
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: ['audit', filters, page],
    placeholderData: keepPreviousData,
    queryFn: () => call(api.GET('/api/v1/audit', { params: { query: auditQuery(filters, page) } })),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setPage(1);
    setFilters(draft);
  };
  const field = (key: keyof Filters, label: string, type = 'text') => (
    <TextField
      label={label}
      type={type}
      value={draft[key]}
      onChange={(v) => setDraft({ ...draft, [key]: v })}
    />
  );
  return (
    <>
      <PageTitle>Audit log</PageTitle>
      <form className="card" onSubmit={submit} aria-label="Audit filters">
        <div className="row">
          {field('actor', 'Actor')}
          {field('action', 'Action')}
          {field('target', 'Target')}
          {field('from', 'From', 'date')}
          {field('to', 'To', 'date')}
        </div>
        <div className="actions">
          <button type="submit">Apply filters</button>
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setDraft(EMPTY);
              setFilters(EMPTY);
              setPage(1);
            }}
          >
            Clear
          </button>
        </div>
      </form>
      <PagedTable
        caption="Audit log"
        what="audit log"
        list={list}
        columns={COLUMNS}
        rowKey={(e) => e.id}
        empty="No entries match."
        onPage={setPage}
      />
    </>
  );
}
