import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../api/client';
import type { CreatedTeamToken, TeamToken } from '../api/types';
import { DataTable } from '../components/DataTable';
import {
  CopyBlock,
  ErrorNote,
  FormCard,
  PageTitle,
  SelectField,
  ShownOnce,
  TextField,
} from '../components/ui';
import { formatTime } from '../lib/format';
import { isOwner, useSession } from '../lib/session';

const LEVELS: TeamToken['level'][] = ['viewer', 'admin', 'owner'];

export function TeamPage() {
  const session = useSession();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [level, setLevel] = useState<TeamToken['level']>('viewer');
  const [created, setCreated] = useState<CreatedTeamToken | null>(null);
  const list = useQuery({
    queryKey: ['team'],
    queryFn: () => call(api.GET('/api/v1/team/tokens', { params: { query: { per_page: 100 } } })),
  });
  const create = useMutation({
    mutationFn: () => call(api.POST('/api/v1/team/tokens', { body: { name: name.trim(), level } })),
    onSuccess: (t) => {
      setCreated(t);
      setName('');
      return queryClient.invalidateQueries({ queryKey: ['team'] });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) =>
      call(api.DELETE('/api/v1/team/tokens/{id}', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['team'] }),
  });
  const owner = isOwner(session);
  return (
    <>
      <PageTitle>Team</PageTitle>
      <p className="muted">
        Team tokens (<code>cma_…</code>) sign in here and call the admin API: owners manage the
        team, admins change everything else, viewers only read.
      </p>
      {!owner && <p className="notice">Only owner tokens create and revoke team tokens.</p>}
      {created && (
        <ShownOnce
          title={`New team token “${created.token.name}”: copy it now`}
          note="This value is shown only once."
          onDone={() => setCreated(null)}
        >
          <CopyBlock label="Token value" text={created.plain_token} />
        </ShownOnce>
      )}
      {owner && (
        <FormCard title="New team token" submit="Create token" action={create}>
          <div className="row">
            <TextField label="Name" value={name} onChange={setName} />
            <SelectField label="Level" value={level} options={LEVELS} onChange={setLevel} />
          </div>
        </FormCard>
      )}
      <ErrorNote error={list.error ?? revoke.error} />
      <DataTable
        caption="Team tokens"
        rows={list.data?.data ?? []}
        rowKey={(t) => t.id}
        empty={list.data && 'No team tokens yet.'}
        columns={[
          { header: 'Name', cell: (t) => t.name },
          { header: 'Level', cell: (t) => t.level },
          { header: 'Created', cell: (t) => formatTime(t.created_at) },
          { header: 'Last used', cell: (t) => formatTime(t.last_used_at) },
          owner && {
            header: 'Actions',
            cell: (t) => (
              <button
                type="button"
                className="danger"
                aria-label={`Revoke ${t.name}`}
                onClick={() => revoke.mutate(t.id)}
              >
                Revoke
              </button>
            ),
          },
        ]}
      />
    </>
  );
}
