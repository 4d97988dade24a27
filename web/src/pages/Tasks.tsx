import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../api/client';
import type { Task } from '../api/types';
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

const STATUSES: Task['status'][] = ['pending', 'running', 'done', 'failed'];

/** What a task works on, in a few words. */
export function taskSubject(task: Pick<Task, 'payload'>): string {
  const p = (task.payload ?? {}) as Record<string, unknown>;
  const name = p.package ?? p.name ?? p.packageName;
  return typeof name === 'string' ? name : '';
}

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
      <Field label="State">
        {(id) => (
          <select
            id={id}
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as Task['status'] | '');
              setPage(1);
            }}
          >
            <option value="">Any state</option>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        )}
      </Field>
      <ErrorNote error={list.error} />
      {list.isPending ? (
        <Loading what="tasks" />
      ) : (
        <TableWrap caption="Tasks">
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">Subject</th>
              <th scope="col">State</th>
              <th scope="col">Attempts</th>
              <th scope="col">Created</th>
              <th scope="col">Finished</th>
              <th scope="col">Error</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.data.map((t) => (
              <tr key={t.id}>
                <td>
                  <code>{t.type}</code>
                </td>
                <td>{taskSubject(t)}</td>
                <td>
                  <StatusBadge status={t.status} />
                </td>
                <td>
                  {t.attempts}/{t.max_attempts}
                </td>
                <td>{formatTime(t.created_at)}</td>
                <td>{formatTime(t.finished_at)}</td>
                <td className="break">{t.error ?? ''}</td>
              </tr>
            ))}
            {list.data?.data.length === 0 && (
              <tr>
                <td colSpan={7}>No tasks{status ? ` in state ${status}` : ''}.</td>
              </tr>
            )}
          </tbody>
        </TableWrap>
      )}
      <Pager pagination={list.data?.pagination} onPage={setPage} label="Tasks" />
    </>
  );
}
