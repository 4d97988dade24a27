import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../api/client';
import type { Task } from '../api/types';
import { PagedTable } from '../components/DataTable';
import type { Column } from '../components/DataTable';
import { ErrorNote, PageTitle, SelectField, StatusBadge } from '../components/ui';
import { formatTime } from '../lib/format';
import { canWrite, useSession } from '../lib/session';

const STATUSES: Task['status'][] = ['pending', 'running', 'done', 'failed'];

/** What a task works on, in a few words. */
export function taskSubject(task: Pick<Task, 'payload'>): string {
  const p = (task.payload ?? {}) as Record<string, unknown>;
  const name = p.package ?? p.name ?? p.packageName;
  return typeof name === 'string' ? name : '';
}

const COLUMNS: Column<Task>[] = [
  { header: 'Type', cell: (t) => <code>{t.type}</code> },
  { header: 'Subject', cell: taskSubject },
  { header: 'State', cell: (t) => <StatusBadge status={t.status} /> },
  { header: 'Attempts', cell: (t) => `${t.attempts}/${t.max_attempts}` },
  { header: 'Created', cell: (t) => formatTime(t.created_at) },
  { header: 'Finished', cell: (t) => formatTime(t.finished_at) },
  { header: 'Error', cell: (t) => t.error ?? '', className: 'break' },
];

export function TasksPage() {
  const session = useSession();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<Task['status'] | ''>('');
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: ['tasks', status, page],
    placeholderData: keepPreviousData,
    // Tasks change on their own: re-read while any on the page is still under way.
    refetchInterval: (q) =>
      q.state.data?.data.some((t) => t.status === 'pending' || t.status === 'running')
        ? 2000
        : 10_000,
    queryFn: () =>
      call(
        api.GET('/api/v1/tasks', {
          params: { query: { status: status || undefined, page, per_page: 25 } },
        }),
      ),
  });
  const run = useMutation({
    mutationFn: (what: 'sync-all' | 'cleanup') =>
      what === 'sync-all'
        ? call(api.POST('/api/v1/tasks/sync-all'))
        : call(api.POST('/api/v1/tasks/cleanup')),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['tasks'] }),
  });
  return (
    <>
      <PageTitle>Tasks</PageTitle>
      {canWrite(session) && (
        <div className="actions">
          <button type="button" onClick={() => run.mutate('sync-all')} disabled={run.isPending}>
            Sync all packages
          </button>
          <button
            type="button"
            className="secondary"
            onClick={() => run.mutate('cleanup')}
            disabled={run.isPending}
          >
            Run cleanup
          </button>
        </div>
      )}
      <ErrorNote error={run.error} />
      <SelectField
        label="State"
        blank="Any state"
        value={status}
        options={STATUSES}
        onChange={(s) => {
          setStatus(s);
          setPage(1);
        }}
      />
      <PagedTable
        caption="Tasks"
        what="tasks"
        list={list}
        columns={COLUMNS}
        rowKey={(t) => t.id}
        empty={`No tasks${status ? ` in state ${status}` : ''}.`}
        onPage={setPage}
      />
    </>
  );
}
