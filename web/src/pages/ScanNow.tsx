import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, call } from '../api/client';
import { ErrorNote } from '../components/ui';

const underWay = (status: string | undefined) => status === 'pending' || status === 'running';

/**
 * `Scan now`: queues the advisories import and match (`POST /vulnerabilities/scan`, 202 with the
 * task), then follows that task until it ends and re-reads the list.
 */
export function ScanNow() {
  const queryClient = useQueryClient();
  const scan = useMutation({ mutationFn: () => call(api.POST('/api/v1/vulnerabilities/scan')) });
  const taskId = scan.data?.id;
  const task = useQuery({
    queryKey: ['task', taskId],
    enabled: taskId !== undefined,
    queryFn: () => call(api.GET('/api/v1/tasks/{id}', { params: { path: { id: taskId ?? '' } } })),
    refetchInterval: (q) => (underWay(q.state.data?.status ?? 'pending') ? 1000 : false),
  });
  const status = task.data?.status ?? scan.data?.status;
  const ended = status === 'done' || status === 'failed';
  // New matches may have come with the scan: read the list again once it ends.
  useEffect(() => {
    if (ended) void queryClient.invalidateQueries({ queryKey: ['vulnerabilities'] });
  }, [ended, taskId, queryClient]);
  const running = scan.isPending || underWay(status);
  return (
    <div className="actions scan">
      <button type="button" onClick={() => scan.mutate()} disabled={running}>
        Scan now
      </button>
      <span role="status" className="muted">
        {scan.isPending && 'Queuing a scan…'}
        {status && underWay(status) && 'Scan queued: importing advisories and matching versions. '}
        {status === 'done' && 'Scan finished; the list is up to date. '}
        {status === 'failed' && 'The scan failed. '}
        {status && <Link to="/tasks">See it on the Tasks page</Link>}
      </span>
      <ErrorNote error={scan.error ?? task.error} />
    </div>
  );
}
